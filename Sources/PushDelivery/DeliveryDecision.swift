import Foundation
import PushProtocol

/// The engine's next step for a delivery after one try (see `RetryPolicy.decide`).
package enum DeliveryDecision: Sendable, Equatable {
    /// Done: delete the outbox row, count it delivered.
    case delivered
    /// Keep the row, count one more attempt, send again at `at`. With `scope == .origin`
    /// every delivery of the job's backoff scope (`PushGateway.backoffScope(for:)`) also waits
    /// until `at`.
    case retry(at: Date, reason: DeliveryReason, scope: DeliveryOutcome.BackoffScope)
    /// Delete the row and the registration (only when it was last renewed before
    /// `invalidSince`, if given); count it dead by reason.
    case dead(DeliveryReason, invalidSince: Date?)
    /// Delete the row, keep the registration, count it rejected by reason
    /// (including `delivery.attempts_exhausted`).
    case rejected(DeliveryReason)
    /// Like `rejected`, and the provider is shown unhealthy: its configuration is wrong.
    case misconfigured(DeliveryReason)
    /// The ttl ran out (or would before the next try): delete the row, count it expired.
    /// A call ring is never delivered late.
    case expired
    /// Refresh the provider's credentials (once per provider, not per job), then send again at
    /// `retryAt`; if the refreshed credentials are refused too, the provider is unhealthy.
    case refreshCredentials(DeliveryReason, retryAt: Date)
}

extension RetryPolicy {
    /// Turns one try's outcome into the next step.
    ///
    /// - `job.attempts` counts the tries before this one, so this was try `attempts + 1`;
    ///   when that reaches `self.attempts` there is no retry.
    /// - A retry waits `max(backoff, Retry-After)`; one that would leave less than a whole
    ///   second of ttl when it is sent is `expired` instead.
    package func decide<R: RandomNumberGenerator>(_ outcome: DeliveryOutcome, for job: DeliveryJob, now: Date,
                                                 using generator: inout R) -> DeliveryDecision {
        switch outcome {
        case .delivered:
            return .delivered
        case .dead(let reason, let invalidSince):
            return .dead(reason, invalidSince: invalidSince)
        case .rejected(let reason):
            return .rejected(reason)
        case .expired:
            return .expired
        case .auth(let reason, .configuration):
            return .misconfigured(reason)
        case .auth(let reason, .refresh):
            return schedule(job, at: now, reason: reason) { .refreshCredentials(reason, retryAt: now) }
        case .transient(let reason, let retryAfter, let scope):
            let backoff = backoff(afterFailures: job.attempts + 1, using: &generator)
            let at = now.addingTimeInterval(max(backoff, retryAfter ?? 0))
            return schedule(job, at: at, reason: reason) { .retry(at: at, reason: reason, scope: scope) }
        }
    }

    /// `decide` with the system's random source.
    package func decide(_ outcome: DeliveryOutcome, for job: DeliveryJob, now: Date) -> DeliveryDecision {
        var generator = SystemRandomNumberGenerator()
        return decide(outcome, for: job, now: now, using: &generator)
    }

    private func schedule(_ job: DeliveryJob, at: Date, reason: DeliveryReason,
                          _ retry: () -> DeliveryDecision) -> DeliveryDecision {
        if job.attempts + 1 >= attempts {
            return .rejected(DeliveryReason(.attemptsExhausted, detail: reason.code.rawValue))
        }
        if job.isExpired(at: at) { return .expired }
        return retry()
    }
}
