import Foundation
import PushProtocol

/// The unclaimed fan-out (`RecipientChunks`) on PostgreSQL: chunks written at accept (in the
/// notification's statement, `PostgresStore+Notifications.swift`), expanded into outbox rows by
/// whichever node claims them.
extension PostgresStore {
    /// Expands up to `room` ids of the chunks matching `condition` (a `WHERE` clause over
    /// `recipient_chunks`, with `values`), oldest notification first, into queued outbox rows due at
    /// their notification's creation (or `nowMs`, if earlier). Chunks another transaction holds
    /// are skipped, or with `waiting` waited for (a withdrawal must see what a concurrent claim
    /// expanded). A chunk taken whole is deleted, one taken in part keeps the rest. Returns how
    /// many rows it wrote.
    @discardableResult
    static func expandChunks(where condition: String, _ values: [PGValue], upTo room: Int, nowMs: Int64, waiting: Bool = false,
                             db: PGConnection) throws -> Int {
        // Waiting, every matching chunk is locked in one statement: after a wait, PostgreSQL drops
        // a row the holder deleted, and with `LIMIT 1` that could end the loop while chunks remain.
        let lock = waiting ? "FOR UPDATE" : "LIMIT 1 FOR UPDATE SKIP LOCKED"
        var expanded = 0
        while expanded < room {
            let found = try db.query("""
                SELECT provider, notification, part, registrations, created_at, expires_at FROM recipient_chunks
                WHERE \(condition) ORDER BY notification, part \(lock)
                """, values)
            guard found.rowCount > 0 else { break }
            var taken = 0
            for chunk in found.rows where expanded + taken < room {
                taken += try expand(chunk, upTo: room - expanded - taken, nowMs: nowMs, db: db)
            }
            expanded += taken
            // Waiting, every match was in the one result; an empty chunk text gives nothing more.
            if waiting || taken == 0 { break }
        }
        return expanded
    }

    /// Moves up to `room` ids of one locked chunk row into the outbox; returns how many.
    private static func expand(_ chunk: PGRow, upTo room: Int, nowMs: Int64, db: PGConnection) throws -> Int {
        let key: [PGValue] = [.text(chunk.text(0)), .integer(chunk.int64(1)), .integer(chunk.int64(2))]
        let (taken, rest) = RecipientChunks.take(room, from: chunk.text(3))
        let createdAt = chunk.int64(4)
        try db.run("""
            INSERT INTO outbox (notification, registration, provider, next_attempt_at, created_at, expires_at)
            SELECT $1, registration, $2, $3, $4, $5 FROM unnest($6::text[]) AS t(registration)
            """, [.integer(chunk.int64(1)), .text(chunk.text(0)), .integer(min(createdAt, nowMs)), .integer(createdAt),
                  .integer(chunk.int64(5)), .textArray(taken)])
        if rest.isEmpty {
            try db.run("DELETE FROM recipient_chunks WHERE provider = $1 AND notification = $2 AND part = $3", key)
        } else {
            try db.run("""
                UPDATE recipient_chunks SET registrations = $4, remaining = remaining - $5
                WHERE provider = $1 AND notification = $2 AND part = $3
                """, key + [.text(rest), .int(taken.count)])
        }
        return taken.count
    }

    /// Before a claim of `provider`: expands fresh deliveries into the room the due outbox rows
    /// leave in a claim of `limit`, so the claim's oldest-due-first order sees both.
    static func expandForClaim(provider: Provider, limit: Int, nowMs: Int64, db: PGConnection) throws {
        let due = try db.query("""
            SELECT count(*) FROM (SELECT 1 FROM outbox WHERE provider = $1 AND next_attempt_at <= $2 LIMIT $3) d
            """, [.text(provider.rawValue), .integer(nowMs), .int(limit)]).row(0).int(0)
        guard due < limit else { return }
        try expandChunks(where: "provider = $1", [.text(provider.rawValue)], upTo: limit - due, nowMs: nowMs, db: db)
    }

    /// Unexpanded deliveries per provider, with the oldest chunk's creation (for `outboxStatistics`).
    static func chunkStatistics(db: PGConnection) throws -> [Provider: OutboxStatistics] {
        var result: [Provider: OutboxStatistics] = [:]
        for row in try db.query("SELECT provider, sum(remaining), min(created_at) FROM recipient_chunks GROUP BY provider").rows {
            guard let provider = Provider(rawValue: row.text(0)) else { continue }
            result[provider] = OutboxStatistics(depth: row.int(1), oldestCreatedAt: Date(unixMilliseconds: row.int64(2)))
        }
        return result
    }
}
