import Foundation
import Testing
import PushProtocol
@testable import PushServer

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

    @Test func reopenKeepsData() throws {
        let fixture = try StoreFixture()
        let saved = try fixture.store.saveRegistration(registration("r1", account: "A"))
        _ = try fixture.store.addSubscriptions(ofAccount: "A", [ref(1, "chats")], limit: 10)
        try fixture.store.addSpace(spaceKey(1).string, account: "A", at: t0)
        _ = try fixture.store.enqueue(notification("n1"), deliveries: [Delivery(registrationId: "r1", provider: .fcm)],
                                      caller: "B", key: IdempotencyKey(bytes: [1]), duplicateSince: t0)
        try fixture.reopen()
        #expect(try fixture.store.registrations(ofAccount: "A") == [saved])
        #expect(try fixture.store.subscriptions(ofAccount: "A") == [ref(1, "chats")])
        #expect(try fixture.store.spaces(ofAccount: "A") == [spaceKey(1).string])
        #expect(try fixture.store.outboxStatistics()[.fcm]?.depth == 1)
        #expect(try fixture.store.acceptedNotification(caller: "B", key: IdempotencyKey(bytes: [1]), since: t0) == "n1")
    }

    @Test func registrationsMoveRotateAndRevoke() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        _ = try store.saveRegistration(registration("r1", account: "A", device: "phone"))
        // Same id again for the same account keeps createdAt.
        var again = registration("r1", account: "A", device: "phone", at: t0.addingTimeInterval(60))
        let stored = try store.saveRegistration(again)
        #expect(stored.createdAt == t0)
        #expect(stored.updatedAt == t0.addingTimeInterval(60))
        // Another account registering the same token takes it over.
        again.account = "B"
        again.updatedAt = t0.addingTimeInterval(120)
        again.createdAt = t0.addingTimeInterval(120)
        #expect(try store.saveRegistration(again).createdAt == t0.addingTimeInterval(120))
        #expect(try store.registrations(ofAccount: "A").isEmpty)
        #expect(try store.registrations(ofAccount: "B").map(\.id) == ["r1"])
        // A rotated token replaces the device's previous one for that platform and app only.
        _ = try store.saveRegistration(registration("w1", account: "B", device: "phone", platform: .webpush))
        _ = try store.saveRegistration(registration("r2", account: "B", device: "phone"))
        _ = try store.saveRegistration(registration("r3", account: "B", device: "phone", appId: "other"))
        #expect(Set(try store.registrations(ofAccount: "B").map(\.id)) == ["w1", "r2", "r3"])
        // Revocation.
        #expect(try store.deleteRegistrations(ofAccount: "B", platform: .android, token: "token-r2") == 1)
        #expect(try store.deleteRegistrations(ofAccount: "A", deviceId: "phone") == 0)
        #expect(try store.deleteRegistrations(ofAccount: "B", deviceId: "phone") == 2)
        #expect(try store.registrations(ofAccount: "B").isEmpty)
    }

    @Test func keysRoundTrip() throws {
        let fixture = try StoreFixture()
        var webpush = registration("w", account: "A", platform: .webpush, token: "https://push.example/x")
        webpush.p256dh = [4] + [UInt8](repeating: 7, count: 64)
        webpush.auth = [UInt8](repeating: 3, count: 16)
        _ = try fixture.store.saveRegistration(webpush)
        #expect(try fixture.store.registrations(ofAccount: "A") == [webpush])
    }

    @Test func subscriptionsReplaceAddRemoveAndLimit() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        #expect(try store.replaceSubscriptions(ofAccount: "A", with: [ref(1, "a"), ref(1, "b"), ref(1, "a")], limit: 3) == 2)
        #expect(try store.addSubscriptions(ofAccount: "A", [ref(2, "a"), ref(1, "a")], limit: 3) == 3)
        #expect(throws: StoreError.subscriptionLimitExceeded(limit: 3)) {
            try store.addSubscriptions(ofAccount: "A", [ref(3, "x")], limit: 3)
        }
        #expect(try store.subscriptions(ofAccount: "A").count == 3)  // the refused add left nothing behind
        #expect(throws: StoreError.subscriptionLimitExceeded(limit: 1)) {
            try store.replaceSubscriptions(ofAccount: "A", with: [ref(3, "x"), ref(3, "y")], limit: 1)
        }
        #expect(try store.removeSubscriptions(ofAccount: "A", [ref(1, "a"), ref(9, "none")]) == 2)
        #expect(try store.subscriptions(ofAccount: "A") == [ref(1, "b"), ref(2, "a")].sorted())
        #expect(try store.replaceSubscriptions(ofAccount: "A", with: [], limit: 3) == 0)
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
