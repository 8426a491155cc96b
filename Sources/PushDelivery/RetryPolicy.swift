import Foundation

/// The retry schedule every gateway shares (`delivery.attempts`, `delivery.initialBackoff`,
/// `delivery.maxBackoff`): exponential backoff with full jitter, `Retry-After` honoured, a cap
/// on tries, and never past the job's ttl. A value: the clock and the random source are
/// passed in, so tests need no sleeping and see fixed numbers.
package struct RetryPolicy: Sendable, Equatable {
    /// Most tries of one delivery, the first included (default 6).
    package var attempts: Int
    /// Shortest wait before a retry (default 10 s).
    package var initialBackoff: TimeInterval
    /// Longest wait the backoff alone produces (default 10 min); a longer `Retry-After` wins.
    package var maxBackoff: TimeInterval

    package init(attempts: Int = 6, initialBackoff: TimeInterval = 10, maxBackoff: TimeInterval = 600) {
        self.attempts = max(1, attempts)
        self.initialBackoff = max(0, initialBackoff)
        self.maxBackoff = max(0, maxBackoff)
    }

    package static let `default` = RetryPolicy()

    /// The range a retry's wait is drawn from after `failures` failed tries (≥ 1):
    /// `initialBackoff ... min(maxBackoff, initialBackoff · 2^failures)`.
    ///
    /// "Full jitter" (the wait is uniform over the whole window, so a provider outage does not
    /// bring every queued retry back at the same instant), with the floor at `initialBackoff`
    /// rather than zero so a failing provider is never hit again at once. After 1, 2, 3 …
    /// failures with the defaults: 10–20 s, 10–40 s, 10–80 s, 10–160 s, 10–320 s, then 10–600 s.
    package func backoffWindow(afterFailures failures: Int) -> ClosedRange<TimeInterval> {
        let floor = min(initialBackoff, maxBackoff)
        let exponent = Double(min(max(failures, 1), 40))
        let ceiling = min(maxBackoff, initialBackoff * pow(2, exponent))
        return floor...max(floor, ceiling)
    }

    /// A wait drawn from `backoffWindow(afterFailures:)` with `generator`.
    package func backoff<R: RandomNumberGenerator>(afterFailures failures: Int, using generator: inout R) -> TimeInterval {
        let window = backoffWindow(afterFailures: failures)
        return window.lowerBound == window.upperBound ? window.lowerBound : TimeInterval.random(in: window, using: &generator)
    }
}
