import Foundation

extension PostgresStore {
    package func release(_ entryIDs: [Int64], until date: Date) throws {
        guard !entryIDs.isEmpty else { return }
        try write { db in
            try db.run("""
                UPDATE outbox SET state = 0, claimed_by = NULL, attempts = greatest(0, attempts - 1), next_attempt_at = $1
                WHERE id = ANY($2::bigint[]) AND state = 1 AND claimed_by = $3
                """, [.integer(date.unixMilliseconds), .integerArray(entryIDs), .text(nodeID)])
        }
    }
}
