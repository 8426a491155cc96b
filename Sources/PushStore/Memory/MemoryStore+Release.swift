import Foundation

extension MemoryStore {
    package func release(_ entryIDs: [Int64], until date: Date) throws {
        try write { tables in
            for id in entryIDs {
                guard let (provider, row) = tables.row(id), row.claimed else { continue }
                tables.outbox[provider]![id]!.claimed = false
                tables.outbox[provider]![id]!.attempts = max(0, row.attempts - 1)
                tables.outbox[provider]![id]!.nextAttemptAt = date.unixMilliseconds
            }
        }
    }
}
