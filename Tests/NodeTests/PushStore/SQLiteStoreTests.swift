import Foundation
import PushProtocol
import Testing
@testable import PushStore

@Suite struct SQLiteStoreTests {
    @Test func migratesFromEmptyAndRefusesNewerFiles() throws {
        let fixture = try StoreFixture()
        let version = try fixture.store.read { db in try db.queryFirst("PRAGMA user_version") { $0.int(0) } }
        #expect(version == SQLiteMigrations.latestVersion)
        let tables = try fixture.store.read { db in
            try db.query("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name") { $0.text(0) }
        }
        #expect(tables == ["delivery_outcomes", "idempotency", "notification_log", "notifications", "outbox", "registrations",
                           "spaces", "subscriptions"])
        let mode = try fixture.store.read { db in try db.queryFirst("PRAGMA journal_mode") { $0.text(0) } }
        #expect(mode == "wal")

        try fixture.reopen()  // applying again is a no-op
        try fixture.store.write { db in try db.execute("PRAGMA user_version = 99") }
        fixture.store.close()
        #expect(throws: StoreError.incompatibleSchema(found: 99, supported: SQLiteMigrations.latestVersion)) {
            _ = try SQLiteStore(path: fixture.directory.databasePath)
        }
    }
}
