import Foundation
import PushProtocol

/// A claimed delivery with everything a gateway needs to send it.
public struct OutboxEntry: Sendable, Equatable {
    public var id: Int64
    /// Attempts so far, including the one this claim starts.
    public var attempts: Int
    public var createdAt: Date
    public var expiresAt: Date
    public var notification: NotificationRecord
    public var registration: Registration

    public init(id: Int64, attempts: Int, createdAt: Date, expiresAt: Date, notification: NotificationRecord,
                registration: Registration) {
        self.id = id
        self.attempts = attempts
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.notification = notification
        self.registration = registration
    }
}

/// The result of `PushStore.claimDue`.
public struct OutboxClaim: Sendable, Equatable {
    /// Claimed deliveries, oldest due first.
    public var entries: [OutboxEntry]
    /// Due rows deleted because their ttl had passed.
    public var expired: Int
    /// Due rows deleted because their registration was gone (pruned or revoked).
    public var orphaned: Int

    public init(entries: [OutboxEntry] = [], expired: Int = 0, orphaned: Int = 0) {
        self.entries = entries
        self.expired = expired
        self.orphaned = orphaned
    }
}

/// Queue depth and the oldest entry of one provider's outbox.
public struct OutboxStatistics: Sendable, Equatable {
    /// Rows queued or claimed.
    public var depth: Int
    /// When the oldest row was queued; `now - oldestCreatedAt` is the oldest-entry age.
    public var oldestCreatedAt: Date

    public init(depth: Int, oldestCreatedAt: Date) {
        self.depth = depth
        self.oldestCreatedAt = oldestCreatedAt
    }
}

/// What `PushStore.purgeExpired` removed.
public struct PurgeCounts: Sendable, Equatable {
    public var idempotencyRecords: Int
    public var notifications: Int
    public var deliveries: Int

    public init(idempotencyRecords: Int = 0, notifications: Int = 0, deliveries: Int = 0) {
        self.idempotencyRecords = idempotencyRecords
        self.notifications = notifications
        self.deliveries = deliveries
    }
}

/// Counters of the store's writer, for `/metrics`.
public struct StoreStatistics: Sendable, Equatable {
    /// Transactions committed.
    public var commits = 0
    /// Write requests run (each in its own savepoint).
    public var writes = 0
    /// Time spent running batches, commit included.
    public var batchSeconds = 0.0
    /// The most writes one commit held.
    public var largestBatch = 0

    public init() {}
}

/// Errors of a store, apart from the database's own.
public enum StoreError: Error, Equatable, Sendable {
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
