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

    /// The claim's own rows just written from the chunks (`expandChunks(claimedUntil:)`), by id.
    private static let freshClaimQuery = StoreColumns.claim + """

        WHERE o.id IN (SELECT value FROM json_each(?))
        ORDER BY o.id
        """

    /// Claims the provider's due outbox rows (retries, lapsed leases, rows of older builds), oldest
    /// due first, then fills the rest of `limit` from the chunks: those rows are written already
    /// claimed, so a fresh delivery costs one insert here and one delete at completion, with no
    /// update between. A fresh row of a registration `apps` does not admit is queued instead, for
    /// its own lane.
    package func claimDue(provider: Provider, apps: AppFilter, limit: Int, now: Date) throws -> OutboxClaim {
        let nowMs = now.unixMilliseconds
        let leaseEnd = now.addingTimeInterval(configuration.claimLease).unixMilliseconds
        return try write { db in
            var claim = OutboxClaim()
            let values: [SQLiteValue] = [.text(provider.rawValue), .integer(nowMs)] + Self.appValues(apps) + [.int(limit)]
            let due = try db.query(Self.claimQuery(apps), values) { try ClaimRow(row: $0, nowMs: nowMs) }
            for row in due {
                if case .live(let entry) = row {
                    try db.run("UPDATE outbox SET state = 1, attempts = attempts + 1, next_attempt_at = ? WHERE id = ?",
                               [.integer(leaseEnd), .integer(entry.id)])
                }
                try Self.take(row, into: &claim, nowMs: nowMs, db: db)
            }
            guard due.count < limit else { return claim }
            let ids = try Self.expandChunks(where: "provider = ?", [.text(provider.rawValue)], upTo: limit - due.count,
                                            nowMs: nowMs, claimedUntil: leaseEnd, db: db)
            guard !ids.isEmpty else { return claim }
            let fresh = try db.query(Self.freshClaimQuery, [.text(SQLiteJSON.array(ids))]) { row in
                (row: try ClaimRow(row: row, nowMs: nowMs), appId: row.optionalText(20), due: min(row.int64(2), nowMs))
            }
            for (var row, appId, due) in fresh {
                guard apps.admits(appId) else {
                    try db.run("UPDATE outbox SET state = 0, attempts = 0, next_attempt_at = ? WHERE id = ?",
                               [.integer(due), .integer(row.id)])
                    continue
                }
                if case .live(var entry) = row {
                    entry.attempts = 1  // written as claimed: this is its first try
                    row = .live(entry)
                }
                try Self.take(row, into: &claim, nowMs: nowMs, db: db)
            }
            return claim
        }
    }

    /// A claimed row into the claim: sent if live, deleted and counted if expired or orphaned.
    private static func take(_ row: ClaimRow, into claim: inout OutboxClaim, nowMs: Int64, db: SQLiteConnection) throws {
        switch row {
        case .live(let entry):
            claim.entries.append(entry)
        case .expired(let id):
            try deleteEntry(id, outcome: .expired, at: nowMs, db: db)
            claim.expired += 1
        case .orphaned(let id):
            // Its registration is gone (pruned or revoked): for the status, the device is dead.
            try deleteEntry(id, outcome: .dead, at: nowMs, db: db)
            claim.orphaned += 1
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

    /// `deleteEntry` for many rows in one transaction, in a fixed number of statements whatever
    /// their count (a statement per row was a third of a delivery's store CPU): one `DELETE` of
    /// every row, one `UPDATE` of the registrations per outcome, then one outcome count and one
    /// `pending` update per notification. A registration finished more than once in the batch
    /// keeps the last outcome in `entries` order, and its delivery time when any was delivered.
    /// Returns how many notifications went with their last row.
    @discardableResult
    static func deleteEntries(_ entries: [(id: Int64, outcome: FinalOutcome)], at nowMs: Int64, db: SQLiteConnection) throws -> Int {
        guard !entries.isEmpty else { return 0 }
        struct OutcomeKey: Hashable {
            var seq: Int64
            var provider: String
            var outcome: FinalOutcome
        }
        let deleted = try db.query("""
            DELETE FROM outbox WHERE id IN (SELECT value FROM json_each(?)) RETURNING id, notification, provider, registration
            """, [.text(SQLiteJSON.array(entries.lazy.map(\.id)))]) { row in
                (id: row.int64(0), row: (seq: row.int64(1), provider: row.text(2), registration: row.text(3)))
            }
        guard !deleted.isEmpty else { return 0 }
        let rows = Dictionary(deleted, uniquingKeysWith: { first, _ in first })
        var outcomes: [OutcomeKey: Int] = [:]
        var removed: [Int64: Int] = [:]
        /// Per registration: its last outcome, and whether any row of it was delivered.
        var registrations: [String: (outcome: FinalOutcome, delivered: Bool)] = [:]
        var order: [String] = []
        for (id, outcome) in entries {
            guard let row = rows[id] else { continue }
            outcomes[OutcomeKey(seq: row.seq, provider: row.provider, outcome: outcome), default: 0] += 1
            removed[row.seq, default: 0] += 1
            guard outcome != .superseded else { continue }
            if let known = registrations[row.registration] {
                registrations[row.registration] = (outcome, known.delivered || outcome == .delivered)
            } else {
                registrations[row.registration] = (outcome, outcome == .delivered)
                order.append(row.registration)
            }
        }
        try updateRegistrations(order.map { ($0, registrations[$0]!) }, at: nowMs, db: db)
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

    /// Records finished deliveries on their registrations: one `UPDATE` per outcome (and whether
    /// it sets the delivery time), over a JSON array of the registration ids.
    private static func updateRegistrations(_ finished: [(id: String, last: (outcome: FinalOutcome, delivered: Bool))],
                                            at nowMs: Int64, db: SQLiteConnection) throws {
        struct Group: Hashable {
            var outcome: FinalOutcome
            var delivered: Bool
        }
        var groups: [Group: [String]] = [:]
        var order: [Group] = []
        for (id, last) in finished {
            let group = Group(outcome: last.outcome, delivered: last.delivered)
            if groups[group] == nil { order.append(group) }
            groups[group, default: []].append(id)
        }
        for group in order {
            let ids = SQLiteValue.text(SQLiteJSON.array(strings: groups[group]!))
            if group.delivered {
                try db.run("""
                    UPDATE registrations SET last_outcome = ?, last_delivery_at = ? WHERE id IN (SELECT value FROM json_each(?))
                    """, [.text(group.outcome.rawValue), .integer(nowMs), ids])
            } else {
                try db.run("UPDATE registrations SET last_outcome = ? WHERE id IN (SELECT value FROM json_each(?))",
                           [.text(group.outcome.rawValue), ids])
            }
        }
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
