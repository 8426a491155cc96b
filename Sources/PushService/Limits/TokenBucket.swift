/// A token bucket as a value: `capacity` tokens at most (the burst), refilled continuously at
/// `refillPerSecond`; each request takes one. The clock is passed in, so it is tested without
/// sleeping.
package struct TokenBucket: Sendable, Equatable {
    /// The outcome of one `take`.
    package enum Decision: Sendable, Equatable {
        case allowed
        /// Denied; `retryAfter` is whole seconds (at least 1) until a token is available.
        case denied(retryAfter: Int)
    }

    package let capacity: Double
    package let refillPerSecond: Double
    package private(set) var tokens: Double
    /// When `tokens` was last brought up to date.
    package private(set) var updatedAt: Double

    /// A full bucket at time `now`.
    package init(capacity: Double, refillPerSecond: Double, now: Double) {
        precondition(capacity >= 1 && refillPerSecond > 0, "a bucket needs capacity >= 1 and a positive refill rate")
        self.capacity = capacity
        self.refillPerSecond = refillPerSecond
        self.tokens = capacity
        self.updatedAt = now
    }

    /// Takes one token if there is one.
    package mutating func take(now: Double) -> Decision {
        refill(now: now)
        if tokens >= 1 {
            tokens -= 1
            return .allowed
        }
        let wait = (1 - tokens) / refillPerSecond
        return .denied(retryAfter: max(1, Int(wait.rounded(.up))))
    }

    /// Whether the bucket would be full at `now`: then it is indistinguishable from a new one
    /// and may be forgotten.
    package func isFull(at now: Double) -> Bool {
        tokens + max(0, now - updatedAt) * refillPerSecond >= capacity
    }

    private mutating func refill(now: Double) {
        if now > updatedAt {
            tokens = min(capacity, tokens + (now - updatedAt) * refillPerSecond)
            updatedAt = now
        }
    }
}
