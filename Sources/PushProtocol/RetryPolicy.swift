import Foundation

/// How often, and how far apart, something is tried: the project's one retry schedule.
///
/// The node's delivery engine applies it per delivery (`delivery.attempts`,
/// `delivery.initialBackoff`, `delivery.maxBackoff`: exponential backoff with full jitter,
/// `Retry-After` honoured, never past the job's ttl); PushClient applies it per call to the node
/// (`fixed()`: anytype-heart's 6 tries, 10 s apart). A fixed interval is the case
/// `initialBackoff == maxBackoff`. A value: the clock and the random source are passed in, so
/// tests need no sleeping and see fixed numbers.
public struct RetryPolicy: Sendable, Equatable {
    /// Most tries, the first included (default 6).
    public var attempts: Int
    /// Shortest wait before a retry, in seconds (default 10 s).
    public var initialBackoff: TimeInterval
    /// Longest wait the backoff alone produces, in seconds (default 10 min); a longer
    /// `Retry-After` wins, up to `maxRetryAfter`.
    public var maxBackoff: TimeInterval
    /// The longest `Retry-After` honoured; a longer one gives up instead of holding the work for
    /// longer than it is worth. Nil: no limit (the engine, whose jobs' ttl is the limit).
    public var maxRetryAfter: TimeInterval?

    public init(attempts: Int = 6, initialBackoff: TimeInterval = 10, maxBackoff: TimeInterval = 600,
                maxRetryAfter: TimeInterval? = nil) {
        self.attempts = max(1, attempts)
        self.initialBackoff = max(0, initialBackoff)
        self.maxBackoff = max(0, maxBackoff)
        self.maxRetryAfter = maxRetryAfter.map { max(0, $0) }
    }

    /// The node's delivery defaults: 6 tries, 10 s doubling to at most 10 min.
    public static let `default` = RetryPolicy()

    /// A fixed pause between tries; a `Retry-After` over `maxRetryAfter` gives up. The defaults
    /// are anytype-heart's for calls to a push node: 6 tries, 10 s apart, at most 10 min asked.
    public static func fixed(attempts: Int = 6, interval: Duration = .seconds(10),
                             maxRetryAfter: Duration = .seconds(600)) -> RetryPolicy {
        RetryPolicy(attempts: attempts, initialBackoff: interval.timeInterval, maxBackoff: interval.timeInterval,
                    maxRetryAfter: maxRetryAfter.timeInterval)
    }

    /// The range a retry's wait is drawn from after `failures` failed tries (≥ 1):
    /// `initialBackoff ... min(maxBackoff, initialBackoff · 2^failures)`.
    ///
    /// "Full jitter" (the wait is uniform over the whole window, so a provider outage does not
    /// bring every queued retry back at the same instant), with the floor at `initialBackoff`
    /// rather than zero so a failing provider is never hit again at once. After 1, 2, 3 …
    /// failures with the defaults: 10–20 s, 10–40 s, 10–80 s, 10–160 s, 10–320 s, then 10–600 s.
    public func backoffWindow(afterFailures failures: Int) -> ClosedRange<TimeInterval> {
        let floor = min(initialBackoff, maxBackoff)
        let exponent = Double(min(max(failures, 1), 40))
        let ceiling = min(maxBackoff, initialBackoff * pow(2, exponent))
        return floor...max(floor, ceiling)
    }

    /// A wait drawn from `backoffWindow(afterFailures:)` with `generator`.
    public func backoff<R: RandomNumberGenerator>(afterFailures failures: Int, using generator: inout R) -> TimeInterval {
        let window = backoffWindow(afterFailures: failures)
        return window.lowerBound == window.upperBound ? window.lowerBound : TimeInterval.random(in: window, using: &generator)
    }

    /// `backoff(afterFailures:using:)` with the system's random source.
    public func backoff(afterFailures failures: Int) -> TimeInterval {
        var generator = SystemRandomNumberGenerator()
        return backoff(afterFailures: failures, using: &generator)
    }
}

extension Duration {
    /// The duration in seconds, as the `TimeInterval` that `Date` arithmetic takes (PushClient's
    /// timers use it too; `package`, so the products add nothing to a user's `Duration`).
    package var timeInterval: TimeInterval {
        let (seconds, attoseconds) = components
        return TimeInterval(seconds) + TimeInterval(attoseconds) / 1e18
    }
}
