import Foundation
import PushDelivery
import PushProtocol
import PushSupport

extension LaneStateMachine {
    /// One try finished at `now`: the retry policy's decision for its outcome, as actions. A
    /// refused credential asks the driver to renew it first (`.refreshCredentials`, reported
    /// with `credentialsRenewed`).
    mutating func finished(_ attempt: Attempt, _ result: Result, now: Date) -> [Action] {
        release(attempt.entryID, result, now: now)
        let decision = decide(classify(result, now: now), for: attempt.job, now: now)
        guard case .refreshCredentials(let reason, let retryAt) = decision else {
            return apply(decision, to: attempt, now: now)
        }
        guard hasCredentials else { return credentialsGaveUp(attempt, reason: reason, now: now) }
        return [.refreshCredentials(attempt, reason: reason, retryAt: retryAt)]
    }

    /// `.refreshCredentials` done: retry with the renewed credential at `retryAt`, or, when
    /// renewing will not help, show the provider unhealthy and back off as for a transient
    /// failure. `generation` is the credentials' generation after it.
    mutating func credentialsRenewed(_ renewal: CredentialRenewal, generation: Int, for attempt: Attempt,
                                     reason: DeliveryReason, retryAt: Date, now: Date) -> [Action] {
        var actions = countMints(upTo: generation)
        switch renewal {
        case .renewed, .alreadyRenewed:
            actions.append(reschedule(attempt.entryID, at: retryAt))
            actions.append(.count(.retried, 1))
        case .gaveUp:
            actions += credentialsGaveUp(attempt, reason: reason, now: now)
        }
        return actions
    }

    private mutating func credentialsGaveUp(_ attempt: Attempt, reason: DeliveryReason, now: Date) -> [Action] {
        var actions = setHealth(.credentialsRefused, reason: reason)
        actions.append(.log(LogRecord(.error, "credentials", ["provider": "\(provider.rawValue)", "reason": "\(reason.code.rawValue)",
                                                            "health": "\(ProviderHealthState.credentialsRefused.rawValue)"])))
        // Keep the push: back off as for a transient failure, within attempts and ttl.
        let fallback = decide(.transient(reason, retryAfter: nil), for: attempt.job, now: now)
        return actions + apply(fallback, to: attempt, now: now)
    }

    /// The actions of a decision other than a credential refresh (which `finished` handles),
    /// each with its `DeliveryEvent` logged.
    private mutating func apply(_ decision: DeliveryDecision, to attempt: Attempt, now: Date) -> [Action] {
        let id = attempt.entryID
        func event(_ outcome: Outcome, _ reason: DeliveryReason? = nil, next: Date? = nil, health: ProviderHealthState? = nil) -> Action {
            .finishedTry(DeliveryEvent(attempt.job, provider: provider, outcome: outcome, reason: reason, nextAttemptAt: next,
                                       health: health))
        }
        switch decision {
        case .delivered:
            complete(id, .delivered)
            var actions: [Action] = [.count(.delivered, 1), event(.delivered)]
            if hasCredentials { actions.append(.credentialsAccepted(generation: attempt.generation)) }
            return actions + setHealth(.healthy)
        case .retry(let at, let reason, let scope):
            if scope == .origin { hold(scopeOf: attempt.job, until: at) }
            return [reschedule(id, at: at), .count(.retried, 1), event(.retried, reason, next: at)]
        case .dead(let reason, let invalidSince):
            complete(id, .dead)
            return [.prune(registrationID: attempt.job.registrationId,
                           notUpdatedAfter: invalidSince ?? .distantFuture, reason: reason),
                    .count(.dead, 1), event(.dead, reason)]
        case .rejected(let reason):
            complete(id, .rejected)
            return [.count(.rejected, 1), event(.rejected, reason)]
        case .misconfigured(let reason):
            complete(id, .rejected)
            return [.count(.rejected, 1)] + setHealth(.misconfigured, reason: reason) + [event(.rejected, reason, health: .misconfigured)]
        case .expired:
            complete(id, .expired)
            return [.count(.expired, 1), event(.expired)]
        case .refreshCredentials(_, let retryAt):
            // Never reached: `finished` renews first, and a fallback decision is a transient's.
            return [reschedule(id, at: retryAt), .count(.retried, 1)]
        }
    }
}
