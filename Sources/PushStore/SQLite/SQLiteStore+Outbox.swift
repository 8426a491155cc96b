import Foundation
import PushProtocol

extension SQLiteStore {
    private static let claimQuery = """
        SELECT o.id, o.attempts, o.createdAt, o.expiresAt,
               n.id, n.kind, n.keyId, n.payload, n.signature, n.groupId, n.createdAt, n.expiresAt,
               r.id IS NOT NULL, \(registrationColumns.split(separator: ",").map { "r." + $0.trimmingCharacters(in: .whitespaces) }.joined(separator: ", "))
        FROM outbox o
        JOIN notifications n ON n.seq = o.notification
        LEFT JOIN registrations r ON r.id = o.registration
        WHERE o.provider = ? AND o.nextAttemptAt <= ?
        ORDER BY o.nextAttemptAt
        LIMIT ?
        """

    package func claimDue(provider: Provider, limit: Int, now: Date) throws -> OutboxClaim {
        let nowMs = now.unixMilliseconds
        let leaseEnd = now.addingTimeInterval(configuration.claimLease).unixMilliseconds
        return try write { db in
            enum Row { case live(OutboxEntry), expired(Int64), orphaned(Int64) }
            let rows = try db.query(Self.claimQuery, [.text(provider.rawValue), .integer(nowMs), .int(limit)]) { row -> Row in
                let id = row.int64(0)
                let expiresAt = row.int64(3)
                if expiresAt <= nowMs { return .expired(id) }
                if row.int(12) == 0 { return .orphaned(id) }
                guard let kind = NotifyKind(rawValue: row.text(5)) else {
                    throw StoreError.corruptRecord("unknown kind \(row.text(5))")
                }
                let notification = NotificationRecord(
                    id: row.text(4), kind: kind, keyId: row.optionalText(6), payload: row.optionalBlob(7),
                    signature: row.optionalBlob(8), groupId: row.optionalText(9),
                    createdAt: Date(unixMilliseconds: row.int64(10)), expiresAt: Date(unixMilliseconds: row.int64(11)))
                return .live(OutboxEntry(
                    id: id, attempts: row.int(1) + 1, createdAt: Date(unixMilliseconds: row.int64(2)),
                    expiresAt: Date(unixMilliseconds: expiresAt), notification: notification,
                    registration: try Self.registration(row, offset: 13)))
            }
            var claim = OutboxClaim()
            for row in rows {
                switch row {
                case .live(let entry):
                    try db.run("UPDATE outbox SET state = 1, attempts = attempts + 1, nextAttemptAt = ? WHERE id = ?",
                               [.integer(leaseEnd), .integer(entry.id)])
                    claim.entries.append(entry)
                case .expired(let id):
                    try Self.deleteEntry(id, db: db)
                    claim.expired += 1
                case .orphaned(let id):
                    try Self.deleteEntry(id, db: db)
                    claim.orphaned += 1
                }
            }
            return claim
        }
    }

    package func complete(_ entryIDs: [Int64]) throws {
        guard !entryIDs.isEmpty else { return }
        try write { db in
            for id in entryIDs { try Self.deleteEntry(id, db: db) }
        }
    }

    package func reschedule(_ entryID: Int64, at date: Date) throws {
        try write { db in
            try db.run("UPDATE outbox SET state = 0, nextAttemptAt = ? WHERE id = ?",
                       [.integer(date.unixMilliseconds), .integer(entryID)])
        }
    }

    package func outboxStatistics() throws -> [Provider: OutboxStatistics] {
        try read { db in
            var result: [Provider: OutboxStatistics] = [:]
            for provider in Provider.allCases {
                let depth = try db.queryFirst("SELECT count(*) FROM outbox WHERE provider = ?",
                                              [.text(provider.rawValue)]) { $0.int(0) } ?? 0
                guard depth > 0 else { continue }
                // Row ids grow with insertion, so the first match in rowid order is the oldest; NOT INDEXED
                // walks the table in that order and stops there instead of sorting the provider's rows.
                let oldest = try db.queryFirst("SELECT createdAt FROM outbox NOT INDEXED WHERE provider = ? ORDER BY id LIMIT 1",
                                               [.text(provider.rawValue)]) { $0.int64(0) } ?? 0
                result[provider] = OutboxStatistics(depth: depth, oldestCreatedAt: Date(unixMilliseconds: oldest))
            }
            return result
        }
    }

    /// Deletes one outbox row and, with its last row, its notification (then true).
    @discardableResult
    static func deleteEntry(_ id: Int64, db: SQLiteConnection) throws -> Bool {
        guard let seq = try db.queryFirst("DELETE FROM outbox WHERE id = ? RETURNING notification", [.integer(id)], { $0.int64(0) })
        else { return false }
        try db.run("UPDATE notifications SET pending = pending - 1 WHERE seq = ?", [.integer(seq)])
        return try db.run("DELETE FROM notifications WHERE seq = ? AND pending <= 0", [.integer(seq)]) > 0
    }
}
