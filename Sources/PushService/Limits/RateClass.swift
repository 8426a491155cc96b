/// Which per-account budget a `ServiceOperation` draws from (see `RateLimitPolicy`).
package enum RateClass: String, Sendable, CaseIterable {
    /// Token, space and subscription operations.
    case registration
    /// Notify and silent Notify.
    case notify
}
