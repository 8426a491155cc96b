import Foundation
import Testing
import PushProtocol
@testable import PushAnySync
@testable import PushConfig
@testable import PushDelivery
@testable import PushEngine
@testable import PushHTTP
@testable import PushMetrics
@testable import PushNet
@testable import PushNode
@testable import PushService
@testable import PushStore
@testable import PushSupport

@Suite struct SQLiteStoreTests {
    @Test func migratesFromEmptyAndRefusesNewerFiles() throws {
        let fixture = try StoreFixture()
        let version = try fixture.store.read { db in try db.queryFirst("PRAGMA user_version") { $0.int(0) } }
        #expect(version == SQLiteMigrations.latestVersion)
        let tables = try fixture.store.read { db in
            try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { $0.text(0) }
        }
        #expect(tables == ["idempotency", "notifications", "outbox", "registrations", "spaces", "subscriptions"])
        let mode = try fixture.store.read { db in try db.queryFirst("PRAGMA journal_mode") { $0.text(0) } }
        #expect(mode == "wal")

        try fixture.reopen()  // applying again is a no-op
        try fixture.store.write { db in try db.execute("PRAGMA user_version = 99") }
        fixture.store.close()
        #expect(throws: StoreError.incompatibleSchema(found: 99, supported: SQLiteMigrations.latestVersion)) {
            _ = try SQLiteStore(path: fixture.directory.databasePath)
        }
    }





    @Test func removingASpaceDropsItsSubscriptions() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try store.addSpace(spaceKey(1).string, account: "A", at: t0)
        try store.addSpace(spaceKey(2).string, account: "A", at: t0)
        _ = try store.addSubscriptions(ofAccount: "A", [ref(1, "a"), ref(2, "a")], limit: 10)
        try store.removeSpace(spaceKey(1).string, account: "A")
        #expect(try store.spaces(ofAccount: "A") == [spaceKey(2).string])
        #expect(try store.subscriptions(ofAccount: "A") == [ref(2, "a")])
    }

    @Test func recipientsAreEveryRegistrationOfEverySubscriberOnce() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        _ = try store.saveRegistration(registration("a1", account: "A", device: "p"))
        _ = try store.saveRegistration(registration("a2", account: "A", device: "q"))
        _ = try store.saveRegistration(registration("b1", account: "B"))
        _ = try store.saveRegistration(registration("c1", account: "C"))
        _ = try store.addSubscriptions(ofAccount: "A", [ref(1, "chats"), ref(1, "A")], limit: 10)
        _ = try store.addSubscriptions(ofAccount: "B", [ref(1, "chats")], limit: 10)
        _ = try store.addSubscriptions(ofAccount: "C", [ref(2, "chats")], limit: 10)
        let found = try store.recipients(of: [ref(1, "chats"), ref(1, "A"), ref(1, "chats")])
        #expect(found.count == 3)
        #expect(Set(found.map(\.registrationId)) == ["a1", "a2", "b1"])
        #expect(found.first { $0.registrationId == "a2" } == Recipient(registrationId: "a2", account: "A", deviceId: "q", platform: .android))
    }
}
