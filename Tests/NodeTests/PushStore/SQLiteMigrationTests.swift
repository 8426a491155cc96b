import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// A file written by an older build migrates in place and keeps its rows.
@Suite struct SQLiteMigrationTests {
    /// A database at schema version 5 (camelCase columns) with a row in every table opens at the
    /// latest version, and the store reads every row back under the snake_case columns.
    @Test func version5RowsSurviveTheSnakeCaseRename() throws {
        let directory = TemporaryDirectory()
        let ms = t0.unixMilliseconds
        let hour: Int64 = 3_600_000
        let space = spaceKey(1).string
        do {
            let old = try SQLiteConnection(path: directory.databasePath)
            for migration in SQLiteMigrations.all.prefix(5) { try old.execute(migration) }
            try old.execute("PRAGMA user_version = 5")
            try old.execute("""
                INSERT INTO registrations (id, account, deviceId, platform, token, p256dh, auth, appId, environment, createdAt,
                                           updatedAt, lastDeliveryAt, lastOutcome)
                VALUES ('r1', 'A', 'd1', 'android', 'tok-1', NULL, NULL, 'default', 'production', \(ms), \(ms + 1), \(ms + 2),
                        'delivered'),
                       ('r2', 'A', 'd2', 'android', 'tok-2', NULL, NULL, 'default', 'production', \(ms + 5), \(ms + 5), NULL, NULL);
                INSERT INTO spaces (account, spaceKey, createdAt) VALUES ('A', '\(space)', \(ms));
                INSERT INTO subscriptions (account, spaceKey, topic) VALUES ('A', '\(space)', 'chats');
                INSERT INTO idempotency (caller, key, notificationId, createdAt) VALUES ('S', x'01', 'n1', \(ms));
                INSERT INTO notifications (seq, id, kind, keyId, payload, signature, groupId, createdAt, expiresAt, pending, caller)
                VALUES (1, 'n1', 'message', 'key-1', x'0203', x'04', 'g', \(ms), \(ms + hour), 2, 'S');
                INSERT INTO outbox (notification, registration, provider, nextAttemptAt, createdAt, expiresAt)
                VALUES (1, 'r1', 'fcm', \(ms), \(ms), \(ms + hour));
                INSERT INTO recipient_chunks (notification, provider, registrations, remaining, createdAt, expiresAt)
                VALUES (1, 'fcm', 'r2', 1, \(ms), \(ms + hour));
                INSERT INTO notification_log (id, caller, createdAt) VALUES ('n1', 'S', \(ms));
                INSERT INTO delivery_outcomes (notificationId, provider, outcome, count) VALUES ('n1', 'apns', 'dead', 3);
                """)
        }

        let store = try SQLiteStore(path: directory.databasePath)
        defer { store.close() }
        #expect(try store.read { db in try db.queryFirst("PRAGMA user_version") { $0.int(0) } } == SQLiteMigrations.latestVersion)
        let registrations = try store.registrations(ofAccount: "A")
        #expect(registrations.map(\.id) == ["r1", "r2"])
        #expect(registrations[0].deviceId == "d1" && registrations[0].address.appId == "default" && registrations[0].address.token == "tok-1")
        #expect(registrations[0].createdAt == t0 && registrations[0].updatedAt == Date(unixMilliseconds: ms + 1))
        #expect(registrations[0].lastDeliveryAt == Date(unixMilliseconds: ms + 2) && registrations[0].lastOutcome == "delivered")
        #expect(try store.spaces(ofAccount: "A") == [space])
        #expect(try store.subscriptions(ofAccount: "A").map(\.topic) == ["chats"])
        #expect(try store.read { db in
            try db.queryFirst("SELECT notification_id, created_at FROM idempotency WHERE caller = 'S'") { [$0.text(0), "\($0.int64(1))"] }
        } == ["n1", "\(ms)"])

        let status = try #require(try store.notificationStatus(id: "n1", caller: "S"))
        #expect(status.createdAt == t0 && status.providers[.apns]?.dead == 3 && status.providers[.fcm]?.queued == 2)

        let claim = try store.claimDue(provider: .fcm, limit: 10, now: t0)
        #expect(Set(claim.entries.map(\.registration.id)) == ["r1", "r2"])
        let entry = try #require(claim.entries.first { $0.registration.id == "r1" })
        #expect(entry.notification.id == "n1" && entry.notification.keyId == "key-1" && entry.notification.groupId == "g")
        #expect(entry.notification.payload == [2, 3] && entry.notification.signature == [4])
        #expect(entry.createdAt == t0 && entry.expiresAt == Date(unixMilliseconds: ms + hour))
    }
}
