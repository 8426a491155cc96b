import Foundation
import PushProtocol

extension PostgresStore {
    private static let claimQuery = """
        SELECT o.id, o.attempts, o.created_at, o.expires_at,
               n.id, n.kind, n.key_id, n.payload, n.signature, n.group_id, n.created_at, n.expires_at,
               r.id IS NOT NULL, \(registrationColumns.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
        FROM outbox o
        JOIN notifications n ON n.seq = o.notification
        LEFT JOIN registrations r ON r.id = o.registration
        WHERE o.provider = $1 AND o.next_attempt_at <= $2
        ORDER BY o.next_attempt_at
        LIMIT $3
        FOR UPDATE OF o SKIP LOCKED
        """

    /// Rows another node is claiming right now are skipped, not waited for: each due row goes to
    /// exactly one claimer.
    package func claimDue(provider: Provider, limit: Int, now: Date) throws -> OutboxClaim {
        let nowMs = now.unixMilliseconds
        let leaseEnd = now.addingTimeInterval(configuration.claimLease).unixMilliseconds
        return try write { db in
            var claim = OutboxClaim()
            var dropped: [Int64] = []
            for row in try db.query(Self.claimQuery, [.text(provider.rawValue), .integer(nowMs), .int(limit)]).rows {
                let id = row.int64(0)
                let expiresAt = row.int64(3)
                if expiresAt <= nowMs {
                    dropped.append(id)
                    claim.expired += 1
                    continue
                }
                if !row.bool(12) {
                    dropped.append(id)
                    claim.orphaned += 1
                    continue
                }
                guard let kind = NotifyKind(rawValue: row.text(5)) else {
                    throw StoreError.corruptRecord("unknown kind \(row.text(5))")
                }
                let notification = NotificationRecord(
                    id: row.text(4), kind: kind, keyId: row.optionalText(6), payload: try row.optionalBytes(7),
                    signature: try row.optionalBytes(8), groupId: row.optionalText(9),
                    createdAt: Date(unixMilliseconds: row.int64(10)), expiresAt: Date(unixMilliseconds: row.int64(11)))
                claim.entries.append(OutboxEntry(
                    id: id, attempts: row.int(1) + 1, createdAt: Date(unixMilliseconds: row.int64(2)),
                    expiresAt: Date(unixMilliseconds: expiresAt), notification: notification,
                    registration: try Self.registration(row, offset: 13)))
            }
            if !claim.entries.isEmpty {
                try db.run("""
                    UPDATE outbox SET state = 1, attempts = attempts + 1, next_attempt_at = $1, claimed_by = $2
                    WHERE id = ANY($3::bigint[])
                    """, [.integer(leaseEnd), .text(nodeID), .integerArray(claim.entries.map(\.id))])
            }
            try Self.deleteEntries(dropped, db: db)
            return claim
        }
    }

    package func complete(_ entryIDs: [Int64]) throws {
        guard !entryIDs.isEmpty else { return }
        try write { db in try Self.deleteEntries(entryIDs, db: db) }
    }

    package func reschedule(_ entryID: Int64, at date: Date) throws {
        try write { db in
            try db.run("UPDATE outbox SET state = 0, claimed_by = NULL, next_attempt_at = $1 WHERE id = $2",
                       [.integer(date.unixMilliseconds), .integer(entryID)])
        }
    }

    /// Extends this node's claims on `entryIDs` to a full lease from `now`; rows it no longer holds
    /// (completed, or taken over after the lease lapsed) are left alone. Returns the ids still held.
    @discardableResult
    package func renewClaims(_ entryIDs: [Int64], now: Date) throws -> Set<Int64> {
        guard !entryIDs.isEmpty else { return [] }
        let leaseEnd = now.addingTimeInterval(configuration.claimLease).unixMilliseconds
        return try write { db in
            Set(try db.query("""
                UPDATE outbox SET next_attempt_at = $1 WHERE id = ANY($2::bigint[]) AND state = 1 AND claimed_by = $3
                RETURNING id
                """, [.integer(leaseEnd), .integerArray(entryIDs), .text(nodeID)]).rows.map { $0.int64(0) })
        }
    }

    package func outboxStatistics() throws -> [Provider: OutboxStatistics] {
        try read { db in
            var result: [Provider: OutboxStatistics] = [:]
            for row in try db.query("SELECT provider, count(*), min(created_at) FROM outbox GROUP BY provider").rows {
                guard let provider = Provider(rawValue: row.text(0)) else { continue }
                result[provider] = OutboxStatistics(depth: row.int(1), oldestCreatedAt: Date(unixMilliseconds: row.int64(2)))
            }
            return result
        }
    }

    /// Deletes outbox rows and the notifications whose last row they were; returns how many
    /// notifications went. `pending` is decremented under the notification's row lock, so two nodes
    /// completing its last two rows at once cannot both miss the zero.
    @discardableResult
    static func deleteEntries(_ ids: [Int64], db: PGConnection) throws -> Int {
        guard !ids.isEmpty else { return 0 }
        let finished = try db.query("""
            WITH gone AS (DELETE FROM outbox WHERE id = ANY($1::bigint[]) RETURNING notification)
            UPDATE notifications n SET pending = n.pending - g.count
            FROM (SELECT notification, count(*) AS count FROM gone GROUP BY notification) g
            WHERE n.seq = g.notification
            RETURNING n.seq, n.pending
            """, [.integerArray(ids)]).rows.filter { $0.int(1) <= 0 }.map { $0.int64(0) }
        guard !finished.isEmpty else { return 0 }
        return try db.run("DELETE FROM notifications WHERE seq = ANY($1::bigint[]) AND pending <= 0",
                          [.integerArray(finished)])
    }
}
