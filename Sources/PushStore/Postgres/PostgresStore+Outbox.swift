import Foundation
import PushProtocol

extension PostgresStore {
    /// One statement: picks and locks the due rows, marks them claimed (`$4` lease end, `$5` node),
    /// and reads them with their notification and registration. The read sees the rows as they
    /// were before the update (one snapshot for the whole statement): attempts before this one.
    /// The picked ids are passed on as an array (`= ANY(ARRAY(…))`), so both the update and the
    /// read find them through the primary key; joined to the CTE, the planner took a `LIMIT $3` for
    /// a tenth of the table and hashed a scan of all of `outbox`.
    static func claimQuery(_ apps: AppFilter) -> String {
        let registrations = appCondition(apps).isEmpty ? "" : " LEFT JOIN registrations r ON r.id = o.registration"
        return """
            WITH picked AS (
                SELECT o.id FROM outbox o\(registrations)
                WHERE o.provider = $1 AND o.next_attempt_at <= $2\(appCondition(apps))
                ORDER BY o.next_attempt_at
                LIMIT $3
                FOR UPDATE OF o SKIP LOCKED),
            claimed AS (
                UPDATE outbox o SET state = 1, attempts = o.attempts + 1, next_attempt_at = $4, claimed_by = $5
                WHERE o.id = ANY(ARRAY(SELECT id FROM picked)))
            """ + StoreColumns.claim + """

            WHERE o.id = ANY(ARRAY(SELECT id FROM picked))
            ORDER BY o.next_attempt_at
            """
    }

    /// The claim's `AND …` on the registration's app, as `$6` (one app or an array of them).
    private static func appCondition(_ apps: AppFilter) -> String {
        switch apps {
        case .all, .except([]): return ""
        case .only: return " AND r.app_id = $6"
        case .except: return " AND (r.id IS NULL OR r.app_id <> ALL($6::text[]))"
        }
    }

    /// Rows another node is claiming right now are skipped, not waited for: each due row goes to
    /// exactly one claimer.
    package func claimDue(provider: Provider, apps: AppFilter, limit: Int, now: Date) throws -> OutboxClaim {
        let nowMs = now.unixMilliseconds
        let leaseEnd = now.addingTimeInterval(configuration.claimLease).unixMilliseconds
        return try write { db in
            try Self.expandForClaim(provider: provider, limit: limit, nowMs: nowMs, db: db)
            var claim = OutboxClaim()
            var dropped: [FinishedDelivery] = []
            var values: [PGValue] = [.text(provider.rawValue), .integer(nowMs), .int(limit), .integer(leaseEnd), .text(nodeID)]
            switch apps {
            case .all, .except([]): break
            case .only(let id): values.append(.text(id))
            case .except(let ids): values.append(.textArray(ids))
            }
            for row in try db.query(Self.claimQuery(apps), values).rows {
                switch try ClaimRow(row: row, nowMs: nowMs) {
                case .live(let entry):
                    claim.entries.append(entry)
                case .expired(let id):
                    dropped.append(FinishedDelivery(id: id, outcome: .expired))
                    claim.expired += 1
                case .orphaned(let id):
                    // Its registration is gone (pruned or revoked): for the status, the device is dead.
                    dropped.append(FinishedDelivery(id: id, outcome: .dead))
                    claim.orphaned += 1
                }
            }
            // Expired and orphaned rows were marked claimed with the rest; they go now, in the same transaction.
            try Self.deleteEntries(dropped, at: nowMs, db: db)
            return claim
        }
    }

    package func complete(_ finished: [FinishedDelivery], at now: Date) throws {
        guard !finished.isEmpty else { return }
        try write { db in try Self.deleteEntries(finished, at: now.unixMilliseconds, db: db) }
    }

    package func reschedule(_ entryID: Int64, at date: Date) throws {
        try write { db in
            try db.run("""
                WITH back AS (UPDATE outbox SET state = 0, claimed_by = NULL, next_attempt_at = $1 WHERE id = $2
                              RETURNING registration)
                UPDATE registrations r SET last_outcome = $3 FROM back WHERE r.id = back.registration
                """, [.integer(date.unixMilliseconds), .integer(entryID), .text(LastOutcome.retrying)])
        }
    }

    package func notificationStatus(id: String, caller: String) throws -> NotificationStatus? {
        try read { db in
            let logged = try db.query("SELECT created_at, seq FROM notification_log WHERE id = $1 AND caller = $2",
                                      [.text(id), .text(caller)])
            guard logged.rowCount > 0 else { return nil }
            var status = NotificationStatus(id: id, createdAt: Date(unixMilliseconds: logged.row(0).int64(0)))
            for row in try db.query("SELECT provider, outcome, count FROM delivery_outcomes WHERE notification_id = $1",
                                    [.text(id)]).rows {
                guard let provider = Provider(rawValue: row.text(0)), let outcome = FinalOutcome(rawValue: row.text(1)) else { continue }
                status.providers[provider, default: .init()].add(outcome, row.int(2))
            }
            guard let seq = logged.row(0).optionalInt64(1) else { return status }
            for row in try db.query("""
                SELECT o.provider, o.state, o.attempts, o.next_attempt_at FROM notifications n JOIN outbox o ON o.notification = n.seq
                WHERE n.seq = $1 AND n.id = $2
                """, [.integer(seq), .text(id)]).rows {
                guard let provider = Provider(rawValue: row.text(0)) else { continue }
                status.providers[provider, default: .init()].addPending(claimed: row.int(1) == 1, attempts: row.int(2),
                                                                        due: Date(unixMilliseconds: row.int64(3)))
            }
            for row in try db.query("""
                SELECT c.provider, sum(c.remaining) FROM notifications n JOIN recipient_chunks c ON c.notification = n.seq
                WHERE n.seq = $1 AND n.id = $2 AND c.\(RecipientChunks.everyProvider)
                GROUP BY c.provider
                """, [.integer(seq), .text(id)]).rows {
                guard let provider = Provider(rawValue: row.text(0)) else { continue }
                status.providers[provider, default: .init()].queued += row.int(1)
            }
            return status
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
            var result = try Self.chunkStatistics(db: db)
            for row in try db.query("SELECT provider, count(*), min(created_at) FROM outbox GROUP BY provider").rows {
                guard let provider = Provider(rawValue: row.text(0)) else { continue }
                result[provider] = OutboxStatistics(depth: row.int(1), oldestCreatedAt: Date(unixMilliseconds: row.int64(2)))
                    .merged(with: result[provider])
            }
            return result
        }
    }

    /// Deletes outbox rows, counts each one's outcome for its notification's status, records it
    /// on the registration (unless superseded: no try; `last_delivery_at` = `nowMs` when
    /// delivered; a registration finished twice in the batch keeps the later outcome, as on
    /// SQLite — `UPDATE … FROM` alone would apply an unspecified one of the two), and deletes the notifications whose last row they were; returns how many
    /// notifications went. `pending` is decremented under the notification's row lock, so two nodes
    /// completing its last two rows at once cannot both miss the zero.
    @discardableResult
    static func deleteEntries(_ finished: [FinishedDelivery], at nowMs: Int64, db: PGConnection) throws -> Int {
        guard !finished.isEmpty else { return 0 }
        let done = try db.query("""
            WITH gone AS (
                DELETE FROM outbox o USING unnest($1::bigint[], $2::text[]) WITH ORDINALITY AS f(id, outcome, ord)
                WHERE o.id = f.id
                RETURNING o.notification, o.provider, o.registration, f.outcome, f.ord),
            counted AS (
                INSERT INTO delivery_outcomes (notification_id, provider, outcome, count)
                SELECT n.id, g.provider, g.outcome, count(*) FROM gone g JOIN notifications n ON n.seq = g.notification
                GROUP BY n.id, g.provider, g.outcome
                ON CONFLICT (notification_id, provider, outcome) DO UPDATE SET count = delivery_outcomes.count + EXCLUDED.count),
            recorded AS (
                UPDATE registrations r SET last_outcome = g.outcome,
                    last_delivery_at = CASE WHEN g.delivered THEN $3 ELSE r.last_delivery_at END
                FROM (SELECT DISTINCT ON (registration) registration, outcome,
                             bool_or(outcome = 'delivered') OVER (PARTITION BY registration) AS delivered
                      FROM gone WHERE outcome <> 'superseded' ORDER BY registration, ord DESC) g
                WHERE r.id = g.registration)
            UPDATE notifications n SET pending = n.pending - g.count
            FROM (SELECT notification, count(*) AS count FROM gone GROUP BY notification) g
            WHERE n.seq = g.notification
            RETURNING n.seq, n.pending
            """, [.integerArray(finished.map(\.id)), .textArray(finished.map(\.outcome.rawValue)), .integer(nowMs)])
            .rows.filter { $0.int(1) <= 0 }.map { $0.int64(0) }
        guard !done.isEmpty else { return 0 }
        return try db.run("DELETE FROM notifications WHERE seq = ANY($1::bigint[]) AND pending <= 0",
                          [.integerArray(done)])
    }
}
