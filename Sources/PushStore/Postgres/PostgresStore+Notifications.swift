import Foundation
import PushProtocol

extension PostgresStore {
    package func acceptedNotification(caller: String, key: IdempotencyKey, since: Date) throws -> String? {
        try read { db in
            try Self.accepted(caller: caller, key: key, since: since, db: db)
        }
    }

    /// One transaction of four round trips whatever the fan-out: the idempotency upsert, the
    /// notification, every outbox row in one `INSERT … SELECT FROM unnest`, and the `NOTIFY`.
    package func enqueue(_ notification: NotificationRecord, deliveries: [Delivery], caller: String, key: IdempotencyKey,
                        duplicateSince: Date) throws -> EnqueueOutcome {
        let created = notification.createdAt.unixMilliseconds
        let expires = notification.expiresAt.unixMilliseconds
        let outcome = try write { db -> EnqueueOutcome in
            // Claims the key unless a record within the window holds it; a concurrent request with the
            // same key (on any node) waits on the row lock and then sees the winner's record.
            let claimed = try db.query("""
                INSERT INTO idempotency (caller, key, notification_id, created_at) VALUES ($1, $2, $3, $4)
                ON CONFLICT (caller, key) DO UPDATE
                    SET notification_id = EXCLUDED.notification_id, created_at = EXCLUDED.created_at
                    WHERE idempotency.created_at < $5
                RETURNING 1
                """, [.text(caller), .bytes(key.bytes), .text(notification.id), .integer(created),
                      .integer(duplicateSince.unixMilliseconds)])
            if claimed.rowCount == 0 {
                guard let first = try Self.accepted(caller: caller, key: key, since: duplicateSince, db: db) else {
                    throw StoreError.corruptRecord("idempotency record vanished")
                }
                return .duplicate(first)
            }
            guard !deliveries.isEmpty else { return .accepted(notification.id) }
            let seq = try db.query("""
                INSERT INTO notifications (id, kind, key_id, payload, signature, group_id, created_at, expires_at, pending)
                VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING seq
                """, [.text(notification.id), .text(notification.kind.rawValue), .optionalText(notification.keyId),
                      .optionalBytes(notification.payload), .optionalBytes(notification.signature),
                      .optionalText(notification.groupId), .integer(created), .integer(expires),
                      .int(deliveries.count)]).row(0).int64(0)
            try db.run("""
                INSERT INTO outbox (notification, registration, provider, next_attempt_at, created_at, expires_at)
                SELECT $1, registration, provider, $2, $2, $3 FROM unnest($4::text[], $5::text[]) AS t(registration, provider)
                """, [.integer(seq), .integer(created), .integer(expires),
                      .textArray(deliveries.map(\.registrationId)), .textArray(deliveries.map(\.provider.rawValue))])
            // Delivered to listeners at COMMIT, never before.
            try db.query("SELECT pg_notify($1, '')", [.text(Self.outboxChannel)])
            return .accepted(notification.id)
        }
        if case .accepted = outcome, !deliveries.isEmpty, !configuration.listens { hooks.fire() }
        return outcome
    }

    package func purgeExpired(now: Date) throws -> PurgeCounts {
        let nowMs = now.unixMilliseconds
        let horizon = now.addingTimeInterval(-StoreRetention.idempotencyWindow).unixMilliseconds
        var counts = PurgeCounts()
        counts.idempotencyRecords = try write { db in
            try db.run("""
                DELETE FROM idempotency WHERE ctid = ANY(ARRAY(
                    SELECT ctid FROM idempotency WHERE created_at < $1 LIMIT \(StoreRetention.purgeBatch) FOR UPDATE SKIP LOCKED))
                """, [.integer(horizon)])
        }
        // Queued rows past their ttl (claimed ones are left to their sender); claimDue drops them too,
        // this covers providers nobody claims for.
        try write { db in
            let expired = try db.query("""
                SELECT id FROM outbox WHERE next_attempt_at <= $1 AND expires_at <= $1 AND state = 0
                LIMIT \(StoreRetention.purgeBatch) FOR UPDATE SKIP LOCKED
                """, [.integer(nowMs)]).rows.map { $0.int64(0) }
            counts.notifications = try Self.deleteEntries(expired, db: db)
            counts.deliveries = expired.count
        }
        return counts
    }

    static func accepted(caller: String, key: IdempotencyKey, since: Date, db: PGConnection) throws -> String? {
        let rows = try db.query("SELECT notification_id FROM idempotency WHERE caller = $1 AND key = $2 AND created_at >= $3",
                                [.text(caller), .bytes(key.bytes), .integer(since.unixMilliseconds)])
        return rows.rowCount > 0 ? rows.row(0).text(0) : nil
    }
}
