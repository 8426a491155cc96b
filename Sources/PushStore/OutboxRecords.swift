import Foundation
import PushProtocol

/// A claimed delivery with everything a gateway needs to send it.
package struct OutboxEntry: Sendable, Equatable {
    package var id: Int64
    /// Attempts so far, including the one this claim starts.
    package var attempts: Int
    package var createdAt: Date
    package var expiresAt: Date
    package var notification: NotificationRecord
    package var registration: Registration
}

/// The result of `OutboxStore.claimDue`.
package struct OutboxClaim: Sendable, Equatable {
    /// Claimed deliveries, oldest due first.
    package var entries: [OutboxEntry] = []
    /// Due rows deleted because their ttl had passed.
    package var expired: Int = 0
    /// Due rows deleted because their registration was gone (pruned or revoked).
    package var orphaned: Int = 0
}

/// Queue depth and the oldest entry of one provider's outbox.
package struct OutboxStatistics: Sendable, Equatable {
    /// Rows queued or claimed.
    package var depth: Int
    /// When the oldest row was queued; `now - oldestCreatedAt` is the oldest-entry age.
    package var oldestCreatedAt: Date

    /// Both parts of one provider's queue together (outbox rows and unexpanded chunks).
    package func merged(with other: OutboxStatistics?) -> OutboxStatistics {
        guard let other else { return self }
        return OutboxStatistics(depth: depth + other.depth, oldestCreatedAt: min(oldestCreatedAt, other.oldestCreatedAt))
    }
}

/// What `OutboxStore.purgeExpired` removed.
package struct PurgeCounts: Sendable, Equatable {
    package var idempotencyRecords: Int = 0
    package var notifications: Int = 0
    package var deliveries: Int = 0
    /// Notification statuses past the outcome retention.
    package var statuses: Int = 0
}

/// Counters of the store's writer, for `/metrics`.
package struct StoreStatistics: Sendable, Equatable {
    /// Transactions committed.
    package var commits = 0
    /// Write requests run (each in its own savepoint).
    package var writes = 0
    /// Time spent running batches, commit included.
    package var batchSeconds = 0.0
    /// The most writes one commit held.
    package var largestBatch = 0

    package init() {}

    /// A batch of `writes` write requests that took `seconds` and `commits` commits (more than
    /// one when a failed batch was retried in parts).
    package mutating func countBatch(of writes: Int, commits: Int = 1, seconds: Double) {
        self.commits += commits
        self.writes += writes
        batchSeconds += seconds
        largestBatch = max(largestBatch, writes)
    }
}

/// Errors of a store, apart from the database's own.
package enum StoreError: Error, Equatable, Sendable {
    /// The store was closed.
    case closed
    /// The account would hold more than `limit` topics.
    case subscriptionLimitExceeded(limit: Int)
    /// The database file was written by a newer build.
    case incompatibleSchema(found: Int, supported: Int)
    /// The database rolled back a whole group commit on its own (I/O error, disk full); retry.
    case transactionAborted
    /// A stored value this build cannot read (e.g. an unknown platform name).
    case corruptRecord(String)
}
