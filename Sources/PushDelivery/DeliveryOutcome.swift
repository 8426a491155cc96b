import Foundation

/// What one try of a delivery came to, as a gateway classifies the provider's answer
/// (PROTOCOL §6, Spec/providers.md). `RetryPolicy.decide` turns it into the next step.
package enum DeliveryOutcome: Sendable, Equatable {
    /// The provider accepted the push.
    case delivered
    /// The registration can never be delivered to again: delete it.
    /// `invalidSince` is APNs' 410 `timestamp`: a registration renewed after it is still good.
    case dead(DeliveryReason, invalidSince: Date? = nil)
    /// This push was refused (payload, size, request or VAPID problem): drop it, keep the token.
    case rejected(DeliveryReason)
    /// Try again later: not before `retryAfter` seconds when the provider said so.
    /// `scope` says whether only this delivery or every delivery of its backoff scope waits.
    case transient(DeliveryReason, retryAfter: TimeInterval?, scope: BackoffScope = .delivery)
    /// The provider refused our credentials.
    case auth(DeliveryReason, AuthProblem)
    /// The ttl ran out before the request could be sent.
    case expired

    /// Who waits after a transient answer.
    package enum BackoffScope: Sendable, Equatable {
        /// Only this delivery is rescheduled.
        case delivery
        /// Every delivery with the same `PushGateway.backoffScope(for:)` key holds off (Web
        /// Push: a 429 from a push service rate-limits the sender, not one subscription, so the
        /// key is the endpoint's origin, `EndpointOrigin`).
        case origin
    }

    /// What an auth failure calls for.
    package enum AuthProblem: Sendable, Equatable {
        /// Our token was refused or expired: mint a new one once, then retry
        /// (FCM 401 without an error code, APNs `ExpiredProviderToken`/`InvalidProviderToken`).
        case refresh
        /// A configuration problem a new token will not fix (FCM `THIRD_PARTY_AUTH_ERROR`,
        /// a service account without permission, APNs certificate/topic refusals): drop the
        /// push, keep the token, show the provider unhealthy.
        case configuration
    }

    /// The reason carried by every outcome except `delivered` and `expired`.
    package var reason: DeliveryReason? {
        switch self {
        case .delivered, .expired: return nil
        case .dead(let reason, _), .rejected(let reason), .transient(let reason, _, _), .auth(let reason, _):
            return reason
        }
    }
}
