/// Which per-account budget a route draws from (see `RateLimitPolicy`).
package enum RateClass: String, Sendable, CaseIterable {
    /// Token, space and subscription routes.
    case registration
    /// `POST /v1/notify` and `/v1/notify/silent`.
    case notify
}
