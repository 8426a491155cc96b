import Foundation
import PushProtocol

/// The unclaimed fan-out (`RecipientChunks`) on SQLite: writing chunks at accept, expanding them
/// into outbox rows inside the claiming (or withdrawing, or purging) transaction.
extension SQLiteStore {
    /// Stores `deliveries` of the notification `seq` as chunk rows.
    static func insertChunks(of deliveries: [Delivery], notification seq: Int64, createdAt: Int64, expiresAt: Int64,
                             db: SQLiteConnection) throws {
        for chunk in RecipientChunks.chunks(of: deliveries) {
            try db.run("""
                INSERT INTO recipient_chunks (provider, notification, part, registrations, remaining, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?)
                """, [.text(chunk.provider.rawValue), .integer(seq), .int(chunk.part), .text(chunk.registrations), .int(chunk.count),
                      .integer(createdAt), .integer(expiresAt)])
        }
    }

    /// Replaces the notification's one chunk of `provider` (part 0) by chunks of at most
    /// `RecipientChunks.capacity` ids (the fan-out SQL writes one per provider; a provider with more
    /// recipients than that is the rare case).
    static func splitChunk(provider: String, notification seq: Int64, db: SQLiteConnection) throws {
        guard let chunk = try db.queryFirst("""
            DELETE FROM recipient_chunks WHERE provider = ? AND notification = ? AND part = 0
            RETURNING registrations, created_at, expires_at
            """, [.text(provider), .integer(seq)], { row in
                (registrations: row.text(0), createdAt: row.int64(1), expiresAt: row.int64(2))
            })
        else { return }
        guard let provider = Provider(rawValue: provider) else {
            throw StoreError.corruptRecord("unknown provider \(provider)")
        }
        let ids = RecipientChunks.take(.max, from: chunk.registrations).taken
        try insertChunks(of: ids.map { Delivery(registrationId: $0, provider: provider) }, notification: seq,
                         createdAt: chunk.createdAt, expiresAt: chunk.expiresAt, db: db)
    }

    /// Expands up to `room` ids of the chunks matching `condition` (a `WHERE` clause over
    /// `recipient_chunks`, with `values`), oldest notification first, into outbox rows: queued and
    /// due at their notification's creation (or `nowMs`, if that is earlier), or with
    /// `claimedUntil`, claimed for their first try until that lease end. A chunk taken whole is
    /// deleted, one taken in part keeps the rest. Returns the ids of the rows it wrote, in order.
    @discardableResult
    static func expandChunks(where condition: String, _ values: [SQLiteValue], upTo room: Int, nowMs: Int64,
                             claimedUntil leaseEnd: Int64? = nil, db: SQLiteConnection) throws -> [Int64] {
        var written: [Int64] = []
        while written.count < room {
            guard let chunk = try db.queryFirst(nextChunkSQL(where: condition), values, { row in
                    (provider: row.text(0), seq: row.int64(1), part: row.int64(2), registrations: row.text(3),
                     createdAt: row.int64(4), expiresAt: row.int64(5))
                })
            else { break }
            let (taken, rest) = RecipientChunks.take(room - written.count, from: chunk.registrations)
            let insert = try db.statement("""
                INSERT INTO outbox (notification, registration, provider, attempts, state, next_attempt_at, created_at, expires_at)
                VALUES (?, ?, ?, ?, ?, ?, ?, ?)
                """)
            let claimed: Int64 = leaseEnd == nil ? 0 : 1
            let next = leaseEnd ?? min(chunk.createdAt, nowMs)
            for registration in taken {
                try insert.execute([.integer(chunk.seq), .text(registration), .text(chunk.provider), .integer(claimed),
                                    .integer(claimed), .integer(next), .integer(chunk.createdAt), .integer(chunk.expiresAt)])
                written.append(db.lastInsertRowID)
            }
            let key: [SQLiteValue] = [.text(chunk.provider), .integer(chunk.seq), .integer(chunk.part)]
            if rest.isEmpty {
                try db.run("DELETE FROM recipient_chunks WHERE provider = ? AND notification = ? AND part = ?", key)
            } else {
                try db.run("""
                    UPDATE recipient_chunks SET registrations = ?, remaining = remaining - ? WHERE provider = ? AND notification = ? AND part = ?
                    """, [.text(rest), .int(taken.count)] + key)
            }
            if taken.isEmpty { break }  // an empty chunk text: nothing more to take from it
        }
        return written
    }

    /// The chunk `expandChunks` takes next among those matching `condition`: of the oldest notification.
    static func nextChunkSQL(where condition: String) -> String {
        """
        SELECT provider, notification, part, registrations, created_at, expires_at FROM recipient_chunks
        WHERE \(condition) ORDER BY notification, part LIMIT 1
        """
    }

    /// Unexpanded deliveries per provider, with the oldest chunk's creation (for `outboxStatistics`).
    static func chunkStatistics(db: SQLiteConnection) throws -> [Provider: OutboxStatistics] {
        var result: [Provider: OutboxStatistics] = [:]
        try db.query("SELECT provider, sum(remaining), min(created_at) FROM recipient_chunks GROUP BY provider") { row in
            (row.text(0), row.int(1), row.int64(2))
        }.forEach { provider, count, oldest in
            guard let provider = Provider(rawValue: provider) else { return }
            result[provider] = OutboxStatistics(depth: count, oldestCreatedAt: Date(unixMilliseconds: oldest))
        }
        return result
    }
}
