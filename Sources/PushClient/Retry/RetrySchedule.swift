import Foundation
import PushProtocol

/// The retry state machine of one request (STYLE §4): feed it each try's outcome, it answers what
/// to do next. A value with no clock of its own — `now` is passed in, for `Retry-After` dates.
///
/// Policy (anytype-heart's Notify, made better): up to `maxAttempts` tries `interval` apart; retry
/// network errors, 429 (waiting `Retry-After` when given) and 5xx; stop at once on any other 4xx.
/// The caller resends the *identical* body on every retry, so the node's idempotency drops any
/// duplicate of a try whose answer was lost.
public struct RetrySchedule: Sendable, Equatable {
    public enum Action: Sendable, Equatable {
        /// Done: the node accepted the request.
        case finished
        /// Try again after this pause.
        case retry(after: Duration)
        /// Stop; the request failed.
        case giveUp(GiveUpReason)
    }

    public enum GiveUpReason: Sendable, Equatable {
        /// A 4xx (not 429): trying again cannot help.
        case rejected(status: Int, apiCode: APIError.Code?)
        /// Every try was transient; `last` is the final one's status (nil: network error).
        case exhausted(last: Int?)
        /// `Retry-After` asked for longer than `maxRetryAfter`.
        case retryAfterTooLong(Duration)

        /// The stable reason name used in counters and logs.
        public var name: String {
            switch self {
            case .rejected: return "rejected"
            case .exhausted: return "retries_exhausted"
            case .retryAfterTooLong: return "rate_limited"
            }
        }
    }

    public let policy: RetryPolicy
    /// Tries made so far.
    public private(set) var attempts = 0

    public init(policy: RetryPolicy = .fixed()) { self.policy = policy }

    /// Records the outcome of the try just made and returns what to do next.
    public mutating func record(_ outcome: AttemptOutcome, now: Date) -> Action {
        attempts += 1
        switch outcome {
        case .success:
            return .finished
        case let .rejected(status, apiCode):
            return .giveUp(.rejected(status: status, apiCode: apiCode))
        case let .transient(status, retryAfter):
            guard attempts < policy.attempts else { return .giveUp(.exhausted(last: status)) }
            let backoff = Self.duration(policy.backoff(afterFailures: attempts))
            guard status == 429 || status == 503, let asked = RetryAfter.delay(retryAfter, now: now) else {
                return .retry(after: backoff)
            }
            if let limit = policy.maxRetryAfter, asked > limit { return .giveUp(.retryAfterTooLong(Self.duration(asked))) }
            return .retry(after: Self.duration(asked))
        }
    }

    private static func duration(_ seconds: TimeInterval) -> Duration { .milliseconds(Int64((seconds * 1000).rounded(.up))) }
}
