import Foundation

/// How long the stores keep what `OutboxStore.purgeExpired` forgets, and how much one purge does:
/// one schedule for every store (and the service's duplicate window), so no two forget differently.
package enum StoreRetention {
    /// How long an idempotency record answers duplicates (PROTOCOL §4).
    package static let idempotencyWindow: TimeInterval = 24 * 3600

    /// How long a notification's status answers `GET /v1/notifications/{id}` by default
    /// (`storage.outcomeRetention`, PROTOCOL §4.4).
    package static let defaultOutcomeRetention: TimeInterval = 24 * 3600

    /// Most rows of each kind one purge deletes, so no writer (and no request waiting on it) is held
    /// for long; a backlog is worked off over successive calls.
    static let purgeBatch = 10_000

    /// One purge's cut-offs at `now`, in unix milliseconds.
    struct PurgeCutoffs {
        /// Queued rows due and expired by then are dropped.
        let now: Int64
        /// Idempotency records created before it are forgotten.
        let idempotency: Int64
        /// Notification statuses (and their outcomes) created before it are forgotten.
        let statuses: Int64

        init(now: Date, outcomeRetention: TimeInterval) {
            self.now = now.unixMilliseconds
            idempotency = now.addingTimeInterval(-StoreRetention.idempotencyWindow).unixMilliseconds
            statuses = now.addingTimeInterval(-outcomeRetention).unixMilliseconds
        }
    }
}
