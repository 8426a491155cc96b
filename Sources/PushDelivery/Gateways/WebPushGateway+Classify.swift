import Foundation
import PushProtocol

extension WebPushGateway {
    /// Wait after a 429 without `Retry-After` (Spec/providers.md).
    package static let rateLimitBackoff: TimeInterval = 300

    /// Classifies a push service's answer (Spec/providers.md "Web Push"):
    ///
    /// | answer | outcome |
    /// | --- | --- |
    /// | 2xx (201 normally) | delivered |
    /// | 404, 410 | dead: the subscription is gone |
    /// | 413 | rejected: too large |
    /// | 429 | transient for the whole origin; `Retry-After`, else 300 s |
    /// | 5xx | transient, `Retry-After` honoured |
    /// | 400, 401, 403, other statuses | rejected (VAPID or request problem), subscription kept |
    package static func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome {
        let status = answer.status
        let detail = String(status)
        let retryAfter = RetryAfter.delay(answer.header("retry-after"), now: now)
        switch status {
        case 200..<300:
            return .delivered
        case 404, 410:
            return .dead(DeliveryReason(.webpushGone, detail: detail))
        case 413:
            return .rejected(DeliveryReason(.webpushPayloadTooLarge, detail: detail))
        case 429:
            return .transient(DeliveryReason(.webpushRateLimited, detail: detail),
                              retryAfter: retryAfter ?? rateLimitBackoff, scope: .origin)
        case 500..<600:
            return .transient(DeliveryReason(.webpushServerError, detail: detail), retryAfter: retryAfter)
        case 400, 401, 403:
            return .rejected(DeliveryReason(.webpushRefused, detail: detail))
        default:
            return .rejected(DeliveryReason(.webpushHTTPError, detail: detail))
        }
    }
}
