/// Which per-account budget a `ServiceOperation` draws from (see `RateLimitPolicy`).
package enum RateClass: String, Sendable, CaseIterable {
    /// Token, space and subscription operations.
    case registration
    /// Notify and silent Notify.
    case notify
    /// `POST /v1/tokens/test`, charged per registration (not per account) by the service itself,
    /// on top of the account's `registration` budget: a test push costs the provider a request.
    case testPush
}
