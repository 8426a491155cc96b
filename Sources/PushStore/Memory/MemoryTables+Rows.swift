import Foundation

/// The rows of `MemoryTables` that are more than a `Registration` or a key.
extension MemoryTables {
    /// One delivery. While `claimed`, `nextAttemptAt` is the lease end.
    struct OutboxRow {
        let id: Int64
        /// The `seq` of its notification.
        let notification: Int64
        /// May name a registration that is gone (pruned or revoked): the row is dropped when claimed.
        let registrationId: String
        var attempts = 0
        var claimed = false
        var nextAttemptAt: Int64
        let createdAt: Int64
        let expiresAt: Int64
    }

    /// A notification stored once for all its deliveries, deleted with its last outbox row.
    struct StoredNotification {
        var record: NotificationRecord
        /// The account that sent it, for `replaces`.
        let caller: String
        /// Outbox rows still referring to it.
        var pending: Int
    }

    struct LoggedNotification {
        var caller: String
        var createdAt: Int64
    }

    struct IdempotencySlot: Hashable {
        var caller: String
        var key: [UInt8]
    }

    struct IdempotencyRecord {
        var notificationId: String
        var createdAt: Int64
    }
}
