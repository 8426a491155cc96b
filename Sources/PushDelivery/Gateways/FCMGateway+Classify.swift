import Foundation
import PushProtocol

extension FCMGateway {
    /// Shortest wait after `QUOTA_EXCEEDED`, whatever `Retry-After` says (Spec/providers.md).
    package static let quotaBackoff: TimeInterval = 60

    /// Classifies an FCM v1 answer (Spec/providers.md "FCM HTTP v1"):
    ///
    /// | answer | outcome |
    /// | --- | --- |
    /// | 2xx | delivered |
    /// | `UNREGISTERED`, `SENDER_ID_MISMATCH` | dead |
    /// | `INVALID_ARGUMENT` about the registration token | dead |
    /// | other `INVALID_ARGUMENT`, other 4xx | rejected (token kept) |
    /// | `THIRD_PARTY_AUTH_ERROR`, 403 and 404 without an FCM error code | auth: configuration |
    /// | 401 without an FCM error code | auth: refresh the access token |
    /// | `QUOTA_EXCEEDED` / 429 | transient, ≥ 60 s, `Retry-After` honoured |
    /// | `UNAVAILABLE`, `INTERNAL`, 5xx | transient, `Retry-After` honoured |
    ///
    /// A 404 prunes only with the `UNREGISTERED` code: a bare 404 means a wrong project id or
    /// base URL, and treating it as dead would delete every FCM registration.
    package static func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome {
        if (200..<300).contains(answer.status) { return .delivered }
        let error = FCMErrorBody(answer.body)
        let retryAfter = RetryAfter.delay(answer.header("retry-after"), now: now)
        let detail = error?.errorCode ?? error?.status ?? String(answer.status)
        func reason(_ code: DeliveryReason.Code) -> DeliveryReason { DeliveryReason(code, detail: detail) }

        switch error?.errorCode {
        case "UNREGISTERED":
            return .dead(reason(.fcmUnregistered))
        case "SENDER_ID_MISMATCH":
            return .dead(reason(.fcmSenderIdMismatch))
        case "THIRD_PARTY_AUTH_ERROR", "APNS_AUTH_ERROR":
            return .auth(reason(.fcmThirdPartyAuth), .configuration)
        case "QUOTA_EXCEEDED":
            return .transient(reason(.fcmQuotaExceeded), retryAfter: max(quotaBackoff, retryAfter ?? 0))
        case "UNAVAILABLE":
            return .transient(reason(.fcmUnavailable), retryAfter: retryAfter)
        case "INTERNAL":
            return .transient(reason(.fcmInternal), retryAfter: retryAfter)
        case "INVALID_ARGUMENT":
            return invalidArgument(error, reason: reason)
        default:
            break
        }

        switch answer.status {
        case 400 where error?.status == "INVALID_ARGUMENT" || error == nil:
            return invalidArgument(error, reason: reason)
        case 401:
            return .auth(reason(.fcmUnauthenticated), .refresh)
        case 403:
            return .auth(reason(.fcmPermissionDenied), .configuration)
        case 404:
            return .auth(reason(.fcmNotFound), .configuration)
        case 429:
            return .transient(reason(.fcmQuotaExceeded), retryAfter: max(quotaBackoff, retryAfter ?? 0))
        case 500:
            return .transient(reason(.fcmInternal), retryAfter: retryAfter)
        case 503:
            return .transient(reason(.fcmUnavailable), retryAfter: retryAfter)
        case 500..<600:
            return .transient(reason(.fcmServerError), retryAfter: retryAfter)
        default:
            return .rejected(reason(.fcmHTTPError))
        }
    }

    private static func invalidArgument(_ error: FCMErrorBody?,
                                        reason: (DeliveryReason.Code) -> DeliveryReason) -> DeliveryOutcome {
        if error?.saysRegistrationTokenInvalid == true { return .dead(reason(.fcmInvalidToken)) }
        return .rejected(reason(.fcmInvalidArgument))
    }
}
