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

    /// The reads of the tables a Notify writes, on the paths that run per request or per claim,
    /// search a key or an index, with the fewer B-trees of schema version 7.
    @Test func chunkAndStatusReadsSearchAKey() throws {
        let fixture = try StoreFixture()
        let chunkKey = "recipient_chunks USING PRIMARY KEY (provider=?"
        let reads: [(sql: String, parameters: Int, searches: String)] = [
            (SQLiteStore.nextChunkSQL(where: "provider = ?"), 1, chunkKey),  // a claim's expansion
            (SQLiteStore.nextChunkSQL(where: SQLiteStore.groupChunks), 2, chunkKey),  // a replacing Notify's withdrawal
            (SQLiteStore.pendingSQL, 2, "outbox_by_notification"), (SQLiteStore.unexpandedSQL, 2, "c USING PRIMARY KEY (provider=?"),
        ]
        for read in reads {
            let plan = try fixture.store.read { db in
                try db.query("EXPLAIN QUERY PLAN " + read.sql, Array(repeating: .null, count: read.parameters)) { $0.text(3) }
            }
            #expect(plan.contains { $0.hasPrefix("SEARCH") && $0.contains(read.searches) }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN") }, "\(plan)")
        }
    }
}
