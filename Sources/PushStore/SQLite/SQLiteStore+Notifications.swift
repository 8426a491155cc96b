import Foundation
import PushProtocol

extension SQLiteStore {
    package func enqueue(_ notification: NotificationRecord, deliveries: [Delivery], superseding: Supersession?,
                        caller: String, key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult {
        try hooks.announce(write { db -> EnqueueResult in
            if let first = try Self.claimKey(key, caller: caller, notification: notification, since: duplicateSince, db: db) {
                return EnqueueResult(.duplicate(first))
            }
            let superseded = try superseding.map { try Self.supersede($0, caller: caller, db: db) } ?? 0
            guard !deliveries.isEmpty else {
                try Self.logAccepted(notification, caller: caller, seq: nil, db: db)
                return EnqueueResult(.accepted(notification.id), superseded: superseded)
            }
            let seq = try Self.insertNotification(notification, caller: caller, pending: deliveries.count, db: db)
            try Self.insertChunks(of: deliveries, notification: seq, createdAt: notification.createdAt.unixMilliseconds,
                                  expiresAt: notification.expiresAt.unixMilliseconds, db: db)
            try Self.logAccepted(notification, caller: caller, seq: seq, db: db)
            return EnqueueResult(.accepted(notification.id), queued: deliveries.count, superseded: superseded)
        })
    }

    package func purgeExpired(now: Date) throws -> PurgeCounts {
        let cutoff = StoreRetention.PurgeCutoffs(now: now, outcomeRetention: configuration.outcomeRetention)
        return try write { db in
            var counts = PurgeCounts()
            counts.idempotencyRecords = try db.run("""
                DELETE FROM idempotency WHERE (caller, key) IN
                    (SELECT caller, key FROM idempotency WHERE created_at < ? LIMIT \(StoreRetention.purgeBatch))
                """, [.integer(cutoff.idempotency)])
            // Expired queued rows are due rows (a retry is never scheduled past the ttl), so the due index
            // finds them; claimDue drops them too, this covers providers nobody claims for. Expired
            // chunks are expanded first, so their deliveries are counted and deleted the same way.
            for provider in Provider.allCases {
                try Self.expandChunks(where: "provider = ? AND expires_at <= ?", [.text(provider.rawValue), .integer(cutoff.now)],
                                      upTo: StoreRetention.purgeBatch, nowMs: cutoff.now, db: db)
                let expired = try db.query("""
                    SELECT id FROM outbox WHERE provider = ? AND next_attempt_at <= ? AND expires_at <= ? AND state = 0 LIMIT \(StoreRetention.purgeBatch)
                    """, [.text(provider.rawValue), .integer(cutoff.now), .integer(cutoff.now)]) { $0.int64(0) }
                for id in expired where try Self.deleteEntry(id, outcome: .expired, at: cutoff.now, db: db) {
                    counts.notifications += 1
                }
                counts.deliveries += expired.count
            }
            let stale = try db.query("SELECT id FROM notification_log WHERE created_at < ? LIMIT \(StoreRetention.purgeBatch)",
                                     [.integer(cutoff.statuses)]) { $0.text(0) }
            for id in stale {
                try db.run("DELETE FROM delivery_outcomes WHERE notification_id = ?", [.text(id)])
                try db.run("DELETE FROM notification_log WHERE id = ?", [.text(id)])
            }
            counts.statuses = stale.count
            return counts
        }
    }

    static func accepted(caller: String, key: IdempotencyKey, since: Date, db: SQLiteConnection) throws -> String? {
        try db.queryFirst("SELECT notification_id FROM idempotency WHERE caller = ? AND key = ? AND created_at >= ?",
                          [.text(caller), .blob(key.bytes), .integer(since.unixMilliseconds)]) { $0.text(0) }
    }
}
