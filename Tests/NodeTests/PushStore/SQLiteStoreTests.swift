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
        #expect(tables == ["delivery_outcomes", "idempotency", "notification_log", "notifications", "outbox", "recipient_chunks",
                           "registrations", "spaces", "subscriptions", "write_probe"])
        let mode = try fixture.store.read { db in try db.queryFirst("PRAGMA journal_mode") { $0.text(0) } }
        #expect(mode == "wal")

        try fixture.reopen()  // applying again is a no-op
        try fixture.store.write { db in try db.execute("PRAGMA user_version = 99") }
        fixture.store.close()
        #expect(throws: StoreError.incompatibleSchema(found: 99, supported: SQLiteMigrations.latestVersion)) {
            _ = try SQLiteStore(path: fixture.directory.databasePath)
        }
    }

    /// Each probe commits new random padding: SQLite writes only the pages an update changes, so
    /// the same bytes again would take one WAL frame, and fit where a Notify's commit does not.
    @Test func theWriteProbeRewritesItsPaddingEachTime() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        let walPath = fixture.directory.databasePath + "-wal"
        func probeRow() throws -> (writes: Int, padding: [UInt8])? {
            try store.read { db in try db.queryFirst("SELECT writes, padding FROM write_probe") { ($0.int(0), $0.blob(1)) } }
        }
        #expect(try probeRow() == nil)
        try store.probeWrite()
        let first = try #require(try probeRow())
        let walBefore = try FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int ?? 0
        try store.probeWrite()
        let second = try #require(try probeRow())
        let walAfter = try FileManager.default.attributesOfItem(atPath: walPath)[.size] as? Int ?? 0
        #expect(first.writes == 1 && second.writes == 2)
        #expect(first.padding.count == SQLiteStore.probePadding && second.padding.count == SQLiteStore.probePadding)
        #expect(first.padding != second.padding)
        // The second probe appended a frame (4 KiB page + 24-byte header) for every page of padding.
        #expect(walAfter - walBefore >= SQLiteStore.probePadding / 4096 * 4120)
    }
}
