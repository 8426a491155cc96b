/// The per-account rate-limit bucket a route draws from (issue 3 §6): token, space and subscription
/// routes share `registration` (20/min with bursts); Notify routes use `notify` (configurable).
public enum RateClass: String, Sendable, Hashable, CaseIterable {
    case registration
    case notify
}
