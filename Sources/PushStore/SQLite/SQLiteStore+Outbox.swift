import Foundation
import PushProtocol

extension SQLiteStore {
    private static func claimQuery(_ apps: AppFilter) -> String {
        StoreColumns.claim + """

            WHERE o.provider = ? AND o.next_attempt_at <= ?\(appCondition(apps))
            ORDER BY o.next_attempt_at
            LIMIT ?
            """
    }

    /// The claim's `AND …` on the registration's app, with a `?` per app.
    private static func appCondition(_ apps: AppFilter) -> String {
        switch apps {
        case .all, .except([]): return ""
        case .only: return " AND r.app_id = ?"
        case .except(let ids): return " AND (r.id IS NULL OR r.app_id NOT IN (\(ids.map { _ in "?" }.joined(separator: ", "))))"
        }
    }

    private static func appValues(_ apps: AppFilter) -> [SQLiteValue] {
        switch apps {
        case .all: return []
        case .only(let id): return [.text(id)]
        case .except(let ids): return ids.map { .text($0) }
        }
    }

    package func claimDue(provider: Provider, apps: AppFilter, limit: Int, now: Date) throws -> OutboxClaim {
        let nowMs = now.unixMilliseconds
        let leaseEnd = now.addingTimeInterval(configuration.claimLease).unixMilliseconds
        return try write { db in
            try Self.expandForClaim(provider: provider, limit: limit, nowMs: nowMs, db: db)
            let values: [SQLiteValue] = [.text(provider.rawValue), .integer(nowMs)] + Self.appValues(apps) + [.int(limit)]
            let rows = try db.query(Self.claimQuery(apps), values) {
                try ClaimRow(row: $0, nowMs: nowMs)
            }
            var claim = OutboxClaim()
            for row in rows {
                switch row {
                case .live(let entry):
                    try db.run("UPDATE outbox SET state = 1, attempts = attempts + 1, next_attempt_at = ? WHERE id = ?",
                               [.integer(leaseEnd), .integer(entry.id)])
                    claim.entries.append(entry)
                case .expired(let id):
                    try Self.deleteEntry(id, outcome: .expired, at: nowMs, db: db)
                    claim.expired += 1
                case .orphaned(let id):
                    // Its registration is gone (pruned or revoked): for the status, the device is dead.
                    try Self.deleteEntry(id, outcome: .dead, at: nowMs, db: db)
                    claim.orphaned += 1
                }
            }
            return claim
        }
    }

    package func complete(_ finished: [FinishedDelivery], at now: Date) throws {
        guard !finished.isEmpty else { return }
        try write { db in
            try Self.deleteEntries(finished.map { ($0.id, $0.outcome) }, at: now.unixMilliseconds, db: db)
        }
    }

    package func reschedule(_ entryID: Int64, at date: Date) throws {
        try write { db in
            guard let registration = try db.queryFirst("UPDATE outbox SET state = 0, next_attempt_at = ? WHERE id = ? RETURNING registration",
                                                       [.integer(date.unixMilliseconds), .integer(entryID)], { $0.text(0) })
            else { return }
            try db.run("UPDATE registrations SET last_outcome = ? WHERE id = ?", [.text(LastOutcome.retrying), .text(registration)])
        }
    }

    package func outboxStatistics() throws -> [Provider: OutboxStatistics] {
        try read { db in
            var result = try Self.chunkStatistics(db: db)
            for provider in Provider.allCases {
                let depth = try db.queryFirst("SELECT count(*) FROM outbox WHERE provider = ?",
                                              [.text(provider.rawValue)]) { $0.int(0) } ?? 0
                guard depth > 0 else { continue }
                // Row ids grow with insertion, so the first match in rowid order is the oldest; NOT INDEXED
                // walks the table in that order and stops there instead of sorting the provider's rows.
                let oldest = try db.queryFirst("SELECT created_at FROM outbox NOT INDEXED WHERE provider = ? ORDER BY id LIMIT 1",
                                               [.text(provider.rawValue)]) { $0.int64(0) } ?? 0
                result[provider] = OutboxStatistics(depth: depth, oldestCreatedAt: Date(unixMilliseconds: oldest))
                    .merged(with: result[provider])
            }
            return result
        }
    }

    /// Deletes one outbox row, counts its `outcome` for the notification's status and, unless it
    /// was superseded (no try), records it on the registration (`lastDeliveryAt` = `nowMs` when
    /// delivered); with the last row its notification goes too (then true).
    @discardableResult
    static func deleteEntry(_ id: Int64, outcome: FinalOutcome, at nowMs: Int64, db: SQLiteConnection) throws -> Bool {
        try deleteEntries([(id, outcome)], at: nowMs, db: db) > 0
    }

    /// `deleteEntry` for many rows in one transaction: a statement per row for the row and its
    /// registration, then one outcome count and one `pending` update per notification (a batch
    /// of one notification's fan-out writes them once, not once per row). Returns how many
    /// notifications went with their last row.
    @discardableResult
    static func deleteEntries(_ entries: [(id: Int64, outcome: FinalOutcome)], at nowMs: Int64, db: SQLiteConnection) throws -> Int {
        struct OutcomeKey: Hashable {
            var seq: Int64
            var provider: String
            var outcome: FinalOutcome
        }
        var outcomes: [OutcomeKey: Int] = [:]
        var removed: [Int64: Int] = [:]
        for (id, outcome) in entries {
            guard let row = try db.queryFirst("DELETE FROM outbox WHERE id = ? RETURNING notification, provider, registration",
                                              [.integer(id)], { (seq: $0.int64(0), provider: $0.text(1), registration: $0.text(2)) })
            else { continue }
            outcomes[OutcomeKey(seq: row.seq, provider: row.provider, outcome: outcome), default: 0] += 1
            removed[row.seq, default: 0] += 1
            if outcome == .delivered {
                try db.run("UPDATE registrations SET last_outcome = ?, last_delivery_at = ? WHERE id = ?",
                           [.text(outcome.rawValue), .integer(nowMs), .text(row.registration)])
            } else if outcome != .superseded {
                try db.run("UPDATE registrations SET last_outcome = ? WHERE id = ?", [.text(outcome.rawValue), .text(row.registration)])
            }
        }
        for (key, count) in outcomes {
            try db.run("""
                INSERT INTO delivery_outcomes (notification_id, provider, outcome, count)
                SELECT id, ?, ?, ? FROM notifications WHERE seq = ?
                ON CONFLICT (notification_id, provider, outcome) DO UPDATE SET count = count + excluded.count
                """, [.text(key.provider), .text(key.outcome.rawValue), .integer(Int64(count)), .integer(key.seq)])
        }
        var gone = 0
        for (seq, count) in removed {
            try db.run("UPDATE notifications SET pending = pending - ? WHERE seq = ?", [.integer(Int64(count)), .integer(seq)])
            gone += try db.run("DELETE FROM notifications WHERE seq = ? AND pending <= 0", [.integer(seq)])
        }
        return gone
    }

    /// A status's queued and claimed deliveries (the notification's seq ?1 and id ?2): the log's seq
    /// names the stored row only while the row is this notification's (SQLite may give a deleted
    /// row's seq to a later one).
    static let pendingSQL = """
        SELECT o.provider, o.state, o.attempts, o.next_attempt_at FROM notifications n JOIN outbox o ON o.notification = n.seq
        WHERE n.seq = ? AND n.id = ?
        """

    /// The same for its unexpanded deliveries, per provider.
    static let unexpandedSQL = """
        SELECT c.provider, sum(c.remaining) FROM notifications n JOIN recipient_chunks c ON c.notification = n.seq
        WHERE n.seq = ? AND n.id = ? AND c.\(RecipientChunks.everyProvider)
        GROUP BY c.provider
        """

    package func notificationStatus(id: String, caller: String) throws -> NotificationStatus? {
        try read { db in
            guard let logged = try db.queryFirst("SELECT created_at, seq FROM notification_log WHERE id = ? AND caller = ?",
                                                 [.text(id), .text(caller)], { (created: $0.int64(0), seq: $0.optionalInt64(1)) })
            else { return nil }
            var status = NotificationStatus(id: id, createdAt: Date(unixMilliseconds: logged.created))
            try db.query("SELECT provider, outcome, count FROM delivery_outcomes WHERE notification_id = ?", [.text(id)]) { row in
                (row.text(0), row.text(1), row.int(2))
            }.forEach { provider, outcome, count in
                guard let provider = Provider(rawValue: provider), let outcome = FinalOutcome(rawValue: outcome) else { return }
                status.providers[provider, default: .init()].add(outcome, count)
            }
            guard let seq = logged.seq else { return status }
            try db.query(Self.pendingSQL, [.integer(seq), .text(id)]) { row in (row.text(0), row.int(1), row.int(2), row.int64(3)) }
            .forEach { provider, state, attempts, due in
                guard let provider = Provider(rawValue: provider) else { return }
                status.providers[provider, default: .init()].addPending(claimed: state == 1, attempts: attempts,
                                                                        due: Date(unixMilliseconds: due))
            }
            try db.query(Self.unexpandedSQL, [.integer(seq), .text(id)]) { row in (row.text(0), row.int(1)) }
            .forEach { provider, count in
                guard let provider = Provider(rawValue: provider) else { return }
                status.providers[provider, default: .init()].queued += count
            }
            return status
        }
    }
}
