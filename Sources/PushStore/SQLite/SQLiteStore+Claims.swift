import Foundation

extension SQLiteStore {
    /// One process per file: every claimed row is this process's, so renewing is moving its lease end.
    package func renewClaims(_ entryIDs: [Int64], now: Date) throws -> Set<Int64> {
        guard !entryIDs.isEmpty else { return [] }
        let leaseEnd = now.addingTimeInterval(configuration.claimLease).unixMilliseconds
        return try write { db in
            var held = Set<Int64>()
            for id in entryIDs where try db.run("UPDATE outbox SET next_attempt_at = ? WHERE id = ? AND state = 1",
                                                 [.integer(leaseEnd), .integer(id)]) > 0 {
                held.insert(id)
            }
            return held
        }
    }

    package func release(_ entryIDs: [Int64], until date: Date) throws {
        guard !entryIDs.isEmpty else { return }
        try write { db in
            for id in entryIDs {
                try db.run("UPDATE outbox SET state = 0, attempts = max(0, attempts - 1), next_attempt_at = ? WHERE id = ? AND state = 1",
                           [.integer(date.unixMilliseconds), .integer(id)])
            }
        }
    }

    /// Called on the committing thread right after an `enqueue` that queued deliveries.
    package func onEnqueue(_ handler: @escaping @Sendable () -> Void) {
        hooks.add(handler)
    }
}
