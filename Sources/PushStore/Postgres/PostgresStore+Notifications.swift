import Foundation
import PushProtocol

extension PostgresStore {
    /// One transaction of two round trips whatever the fan-out (more with `replaces`): `BEGIN`
    /// with `enqueueSQL` (the idempotency claim, the notification, its status log, its
    /// `RecipientChunks` and the `NOTIFY`), and `COMMIT`. A duplicate reads the first
    /// notification's id once more.
    package func enqueue(_ notification: NotificationRecord, deliveries: [Delivery], superseding: Supersession?,
                        caller: String, key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult {
        let created = notification.createdAt.unixMilliseconds
        let expires = notification.expiresAt.unixMilliseconds
        let chunks = RecipientChunks.chunks(of: deliveries)
        return try hooks.announce(write { db -> EnqueueResult in
            var statementKey = key
            var superseded = 0
            if let superseding {
                // The key first, on its own: a duplicate withdraws nothing.
                if let key, let first = try Self.claimKey(key, caller: caller, notification: notification.id, at: created,
                                                          since: duplicateSince, db: db) {
                    return EnqueueResult(.duplicate(first))
                }
                superseded = try Self.supersede(superseding, caller: caller, db: db)
                statementKey = nil
            }
            let claimed = try db.query(Self.enqueueSQL, [
                .text(notification.id), .text(notification.kind.rawValue), .optionalText(notification.keyId),
                .optionalBytes(notification.payload), .optionalBytes(notification.signature),
                .optionalText(notification.groupId), .integer(created), .integer(expires),
                .int(deliveries.count), .text(caller), .textArray(chunks.map(\.provider.rawValue)),
                .integerArray(chunks.map { Int64($0.part) }), .textArray(chunks.map(\.registrations)),
                .integerArray(chunks.map { Int64($0.count) }), .text(Self.outboxChannel),
                .optionalBytes(statementKey?.bytes), .integer(duplicateSince.unixMilliseconds),
            ]).row(0).bool(0)
            guard claimed else {
                guard let key, let first = try Self.accepted(caller: caller, key: key, since: duplicateSince, db: db) else {
                    throw StoreError.corruptRecord("idempotency record vanished")
                }
                return EnqueueResult(.duplicate(first))
            }
            return EnqueueResult(.accepted(notification.id), queued: deliveries.count, superseded: superseded)
        }, unlessListening: configuration.listens)
    }

    /// A Notify's writes in one statement, gated by its idempotency key (`$16`, NULL for none; a
    /// record since `$17` holds it): the key's record, the notification (when it queues any of its
    /// `$9` deliveries), the status log with the notification's seq, the chunks and the `NOTIFY`
    /// (delivered to listeners at COMMIT, never before). Its one row: whether the key was claimed.
    static let enqueueSQL = """
        WITH claimed AS (
            INSERT INTO idempotency (caller, key, notification_id, created_at)
            SELECT $10::text, $16::bytea, $1::text, $7::bigint WHERE $16::bytea IS NOT NULL
            ON CONFLICT (caller, key) DO UPDATE
                SET notification_id = EXCLUDED.notification_id, created_at = EXCLUDED.created_at
                WHERE idempotency.created_at < $17
            RETURNING 1),
        gate AS (SELECT WHERE $16::bytea IS NULL OR EXISTS (SELECT FROM claimed)),
        stored AS (
            INSERT INTO notifications (id, kind, key_id, payload, signature, group_id, created_at, expires_at, pending, caller)
            SELECT $1::text, $2::text, $3::text, $4::bytea, $5::bytea, $6::text, $7::bigint, $8::bigint, $9::integer, $10::text
            FROM gate WHERE $9::integer > 0 RETURNING seq),
        logged AS (
            INSERT INTO notification_log (id, caller, created_at, seq) SELECT $1::text, $10::text, $7::bigint, (SELECT seq FROM stored)
            FROM gate ON CONFLICT (id) DO NOTHING),
        chunks AS (
            INSERT INTO recipient_chunks (provider, notification, part, registrations, remaining, created_at, expires_at)
            SELECT t.provider, stored.seq, t.part, t.registrations, t.remaining, $7::bigint, $8::bigint
            FROM stored, unnest($11::text[], $12::bigint[], $13::text[], $14::bigint[]) AS t(provider, part, registrations, remaining))
        SELECT EXISTS (SELECT FROM gate), (SELECT count(pg_notify($15, '')) FROM stored)
        """

    /// Claims the key unless a record within the window holds it: nil when claimed, else the first
    /// notification's id. A concurrent request with the same key (on any node) waits on the row lock
    /// and then sees the winner's record.
    private static func claimKey(_ key: IdempotencyKey, caller: String, notification: String, at created: Int64,
                                 since: Date, db: PGConnection) throws -> String? {
        let claimed = try db.query("""
            INSERT INTO idempotency (caller, key, notification_id, created_at) VALUES ($1, $2, $3, $4)
            ON CONFLICT (caller, key) DO UPDATE
                SET notification_id = EXCLUDED.notification_id, created_at = EXCLUDED.created_at
                WHERE idempotency.created_at < $5
            RETURNING 1
            """, [.text(caller), .bytes(key.bytes), .text(notification), .integer(created), .integer(since.unixMilliseconds)])
        guard claimed.rowCount == 0 else { return nil }
        guard let first = try accepted(caller: caller, key: key, since: since, db: db) else {
            throw StoreError.corruptRecord("idempotency record vanished")
        }
        return first
    }

    /// Withdraws what `supersession` names inside the caller's transaction (claimed rows too: a
    /// claiming node's later reschedule then finds nothing, so the push is never tried again);
    /// returns how many rows went. Rows whose registration is gone are left to `claimDue`. Locks
    /// are taken in id order, so two replacing Notifies of one group cannot deadlock.
    private static func supersede(_ supersession: Supersession, caller: String, db: PGConnection) throws -> Int {
        guard !supersession.devices.isEmpty else { return 0 }
        // Unclaimed deliveries of the group become outbox rows first, so one rule withdraws all.
        try expandChunks(where: "\(RecipientChunks.everyProvider) AND notification IN (SELECT seq FROM notifications WHERE caller = $1 AND group_id = $2)",
                         [.text(caller), .text(supersession.groupId)], upTo: .max, nowMs: .max, waiting: true, db: db)
        let rows = try db.query("""
            SELECT o.id, r.account, r.device_id
            FROM notifications n
            JOIN outbox o ON o.notification = n.seq
            JOIN registrations r ON r.id = o.registration
            WHERE n.caller = $1 AND n.group_id = $2
            ORDER BY o.id
            FOR UPDATE OF o
            """, [.text(caller), .text(supersession.groupId)]).rows
        let ids = rows.filter { supersession.devices.contains(DeviceRef(account: $0.text(1), deviceId: $0.text(2))) }
            .map { $0.int64(0) }
        _ = try deleteEntries(ids.map { FinishedDelivery(id: $0, outcome: .superseded) }, at: 0, db: db)
        return ids.count
    }

    package func purgeExpired(now: Date) throws -> PurgeCounts {
        let cutoff = StoreRetention.PurgeCutoffs(now: now, outcomeRetention: configuration.outcomeRetention)
        var counts = PurgeCounts()
        counts.idempotencyRecords = try write { db in
            try db.run("""
                DELETE FROM idempotency WHERE ctid = ANY(ARRAY(
                    SELECT ctid FROM idempotency WHERE created_at < $1 LIMIT \(StoreRetention.purgeBatch) FOR UPDATE SKIP LOCKED))
                """, [.integer(cutoff.idempotency)])
        }
        // Queued rows past their ttl (claimed ones are left to their sender); claimDue drops them too,
        // this covers providers nobody claims for. Expired chunks are expanded first, so their
        // deliveries are counted and deleted the same way.
        try write { db in
            // Per provider, so each search walks the chunks' key in order and stops at the first match.
            for provider in Provider.allCases {
                try Self.expandChunks(where: "provider = $1 AND expires_at <= $2", [.text(provider.rawValue), .integer(cutoff.now)],
                                      upTo: StoreRetention.purgeBatch, nowMs: cutoff.now, db: db)
            }
            let expired = try db.query("""
                SELECT id FROM outbox WHERE next_attempt_at <= $1 AND expires_at <= $1 AND state = 0
                LIMIT \(StoreRetention.purgeBatch) FOR UPDATE SKIP LOCKED
                """, [.integer(cutoff.now)]).rows.map { $0.int64(0) }
            counts.notifications = try Self.deleteEntries(expired.map { FinishedDelivery(id: $0, outcome: .expired) }, at: cutoff.now,
                                                          db: db)
            counts.deliveries = expired.count
        }
        counts.statuses = try write { db in
            try db.query("""
                WITH stale AS (DELETE FROM notification_log WHERE id = ANY(ARRAY(
                    SELECT id FROM notification_log WHERE created_at < $1 LIMIT \(StoreRetention.purgeBatch) FOR UPDATE SKIP LOCKED))
                    RETURNING id),
                outcomes AS (DELETE FROM delivery_outcomes WHERE notification_id IN (SELECT id FROM stale))
                SELECT 1 FROM stale
                """, [.integer(cutoff.statuses)]).rowCount
        }
        return counts
    }

    static func accepted(caller: String, key: IdempotencyKey, since: Date, db: PGConnection) throws -> String? {
        let rows = try db.query("SELECT notification_id FROM idempotency WHERE caller = $1 AND key = $2 AND created_at >= $3",
                                [.text(caller), .bytes(key.bytes), .integer(since.unixMilliseconds)])
        return rows.rowCount > 0 ? rows.row(0).text(0) : nil
    }
}
