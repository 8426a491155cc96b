import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// Schema version 7 (issue 25) rekeys the recipient chunks by (provider, notification, part) and
/// gives the status log its notification's seq: a version-6 database with rows in it migrates in
/// place on both SQL stores and loses nothing. Its statuses read the same, and its queued
/// deliveries (an outbox row, chunks of two providers, two chunks of one) are still delivered.
@Suite struct Version7MigrationTests {
    static let kinds: [StoreKind] = PGTestDatabase.isAvailable ? [.sqlite, .postgres] : [.sqlite]

    @Test(arguments: kinds) func version6ChunksAndStatusesSurvive(kind: StoreKind) throws {
        let old = try Version6Database(kind)
        let store = try old.open()
        defer { store.close() }

        let queued = try #require(try store.notificationStatus(id: "n1", caller: "S"))
        #expect(queued.createdAt == t0 && queued.providers[.fcm]?.queued == 3 && queued.providers[.apns]?.queued == 1)
        #expect(queued.providers[.apns]?.dead == 2)
        let empty = try #require(try store.notificationStatus(id: "n0", caller: "S"))
        #expect(empty.providers.isEmpty)
        #expect(try store.notificationStatus(id: "n1", caller: "T") == nil)

        let fcm = try store.claimDue(provider: .fcm, limit: 10, now: t0)
        #expect(Set(fcm.entries.map(\.registration.id)) == ["r0", "r1", "r2"] && fcm.entries.count == 3)
        #expect(fcm.entries.allSatisfy { $0.notification.id == "n1" && $0.notification.payload == [2, 3] })
        let apns = try store.claimDue(provider: .apns, limit: 10, now: t0)
        #expect(apns.entries.map(\.registration.id) == ["r3"])
        try store.complete((fcm.entries + apns.entries).map(\.id))
        let delivered = try #require(try store.notificationStatus(id: "n1", caller: "S"))
        #expect(delivered.providers[.fcm]?.delivered == 3 && delivered.providers[.apns]?.delivered == 1)
        #expect(delivered.total.queued == 0 && delivered.total.inFlight == 0)

        // The migrated schema takes new work: a fan-out past one chunk, split into parts, each id once.
        let ids = (0..<(RecipientChunks.capacity + 3)).map { "x\($0)" }
        let result = try store.enqueue(notification("n2"), deliveries: ids.map { Delivery(registrationId: $0, provider: .fcm) },
                                       caller: "S", key: IdempotencyKey(bytes: [2]), duplicateSince: t0)
        #expect(result == .accepted("n2"))
        #expect(try store.notificationStatus(id: "n2", caller: "S")?.providers[.fcm]?.queued == ids.count)
        let orphans = try store.claimDue(provider: .fcm, limit: 1000, now: t0)
        #expect(orphans.orphaned == ids.count)  // no such registrations: each id came out once, as dead
        #expect(try store.notificationStatus(id: "n2", caller: "S")?.providers[.fcm]?.dead == ids.count)
    }
}

/// A database of one SQL kind at schema version 6, holding n1 (queued to four registrations: r0 in
/// the outbox, r1 and r2 in two fcm chunks, r3 in an apns chunk; two apns deliveries already dead)
/// and n0 (accepted, nothing queued), written with SQL both dialects take.
private final class Version6Database {
    private let kind: StoreKind
    private let directory = TemporaryDirectory()
    private let database: PGTestDatabase?

    init(_ kind: StoreKind) throws {
        self.kind = kind
        let ms = t0.unixMilliseconds
        let hour: Int64 = 3_600_000
        let rows = """
            INSERT INTO registrations (id, account, device_id, platform, token, app_id, environment, created_at, updated_at)
            VALUES ('r0', 'A', 'd0', 'android', 'tok-0', 'default', '', \(ms), \(ms)),
                   ('r1', 'A', 'd1', 'android', 'tok-1', 'default', '', \(ms), \(ms)),
                   ('r2', 'B', 'd2', 'ios', 'tok-2', 'default', '', \(ms), \(ms)),
                   ('r3', 'B', 'd3', 'apns', 'tok-3', 'default', 'production', \(ms), \(ms));
            INSERT INTO notifications (id, kind, key_id, payload, signature, group_id, created_at, expires_at, pending, caller)
            VALUES ('n1', 'message', 'key-1', \(kind == .postgres ? "'\\x0203'" : "x'0203'"), NULL, 'g', \(ms), \(ms + hour), 4, 'S');
            INSERT INTO outbox (notification, registration, provider, next_attempt_at, created_at, expires_at)
            VALUES (1, 'r0', 'fcm', \(ms), \(ms), \(ms + hour));
            INSERT INTO recipient_chunks (notification, provider, registrations, remaining, created_at, expires_at)
            VALUES (1, 'fcm', 'r1', 1, \(ms), \(ms + hour)), (1, 'apns', 'r3', 1, \(ms), \(ms + hour)),
                   (1, 'fcm', 'r2', 1, \(ms), \(ms + hour));
            INSERT INTO notification_log (id, caller, created_at) VALUES ('n1', 'S', \(ms)), ('n0', 'S', \(ms));
            INSERT INTO delivery_outcomes (notification_id, provider, outcome, count) VALUES ('n1', 'apns', 'dead', 2);
            """
        switch kind {
        case .postgres:
            let database = try PGTestDatabase()
            self.database = database
            let connection = try database.connect()
            try connection.execute("CREATE TABLE pushnode_schema (version integer NOT NULL); INSERT INTO pushnode_schema VALUES (6)")
            for migration in PostgresMigrations.all.prefix(6) { try connection.execute(migration) }
            try connection.execute(rows)
        default:
            database = nil
            let connection = try SQLiteConnection(path: directory.databasePath)
            for migration in SQLiteMigrations.all.prefix(6) { try connection.execute(migration) }
            try connection.execute("PRAGMA user_version = 6")
            try connection.execute(rows)
        }
    }

    /// The store on the old database, migrated as it opens.
    func open() throws -> any PushStore {
        switch kind {
        case .postgres:
            return try PostgresStore(url: database!.url, nodeID: "node-a", configuration: .init(poolSize: 2, listens: false))
        default:
            return try SQLiteStore(path: directory.databasePath)
        }
    }
}
