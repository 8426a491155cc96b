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
    /// expanded; it takes every id, `room` = `.max`). A chunk taken whole is deleted, one taken in
    /// part keeps the rest. Returns how many rows it wrote. One statement per chunk (`expandSQL`).
    @discardableResult
    static func expandChunks(where condition: String, _ values: [PGValue], upTo room: Int, nowMs: Int64, waiting: Bool = false,
                             db: PGConnection) throws -> Int {
        // Waiting, every matching chunk is locked in one statement: after a wait, PostgreSQL drops
        // a row the holder deleted, and with `LIMIT 1` that could end the loop while chunks remain.
        let sql = expandSQL(where: condition, lock: waiting ? "FOR UPDATE" : "LIMIT 1 FOR UPDATE SKIP LOCKED",
                            parameters: values.count)
        var expanded = 0
        while expanded < room {
            let rest = min(room - expanded, Int(Int32.max) - 1)  // `$room + 1` is an int4 too
            let taken = try db.query(sql, values + [.integer(nowMs), .int(rest)]).rows.reduce(0) { $0 + $1.int(0) }
            expanded += taken
            // Waiting, every match was in the one statement; an empty chunk text gives nothing more.
            if waiting || taken == 0 { break }
        }
        return expanded
    }

    /// Locks the chunks `condition` matches and moves up to `$(parameters + 2)` ids of each into
    /// the outbox, due at `min(created_at, $(parameters + 1))`; deletes a chunk taken whole and
    /// keeps the rest of one taken in part (the text split as `RecipientChunks.take` splits it).
    /// Rows: the ids taken per chunk.
    private static func expandSQL(where condition: String, lock: String, parameters: Int) -> String {
        let now = "$\(parameters + 1)", room = "$\(parameters + 2)"
        let key = "k.provider = c.provider AND k.notification = c.notification AND k.part = c.part"
        return """
            WITH c AS (
                SELECT provider, notification, part, string_to_array(registrations, '\(RecipientChunks.separator)') AS ids,
                       created_at, expires_at
                FROM recipient_chunks WHERE \(condition) ORDER BY notification, part \(lock)),
            taken AS (
                INSERT INTO outbox (notification, registration, provider, next_attempt_at, created_at, expires_at)
                SELECT c.notification, t.id, c.provider, least(c.created_at, \(now)), c.created_at, c.expires_at
                FROM c, unnest(c.ids[1:\(room)]) AS t(id)),
            whole AS (DELETE FROM recipient_chunks k USING c WHERE \(key) AND cardinality(c.ids) <= \(room)),
            part AS (
                UPDATE recipient_chunks k
                SET registrations = array_to_string(c.ids[\(room) + 1:], '\(RecipientChunks.separator)'), remaining = k.remaining - \(room)
                FROM c WHERE \(key) AND cardinality(c.ids) > \(room))
            SELECT least(cardinality(c.ids), \(room)) FROM c
            """
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
