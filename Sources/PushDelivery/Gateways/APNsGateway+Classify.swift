import Foundation
import PushProtocol

extension APNsGateway {
    /// Classifies an APNs answer (`{"reason": …, "timestamp": …}` on errors;
    /// Spec/providers.md "APNs"):
    ///
    /// | answer | outcome |
    /// | --- | --- |
    /// | 200 | delivered |
    /// | 410 (`Unregistered`, `ExpiredToken`) | dead, invalid since `timestamp` |
    /// | 400 `BadDeviceToken`, `DeviceTokenNotForTopic` | dead |
    /// | 403 `ExpiredProviderToken`, `InvalidProviderToken`, `MissingProviderToken` | auth: refresh |
    /// | other 403; 400 `BadTopic`, `TopicDisallowed`, `MissingTopic`, `BadCertificate…` | auth: configuration |
    /// | 429 (incl. `TooManyProviderTokenUpdates`), 500, 503, other 5xx | transient |
    /// | 413 `PayloadTooLarge`, other 4xx | rejected |
    package static func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome {
        if (200..<300).contains(answer.status) { return .delivered }
        let error = APNsErrorBody(answer.body)
        let wireReason = error.reason
        let detail = wireReason ?? String(answer.status)
        func reason(_ code: DeliveryReason.Code) -> DeliveryReason { DeliveryReason(code, detail: detail) }
        let retryAfter = RetryAfter.delay(answer.header("retry-after"), now: now)

        switch (answer.status, wireReason) {
        case (410, _):
            return .dead(reason(.apnsUnregistered), invalidSince: error.timestamp)
        case (400, "BadDeviceToken"):
            return .dead(reason(.apnsBadDeviceToken))
        case (400, "DeviceTokenNotForTopic"):
            return .dead(reason(.apnsDeviceTokenNotForTopic))
        case (400, "BadTopic"), (400, "TopicDisallowed"), (400, "MissingTopic"),
             (400, "BadCertificate"), (400, "BadCertificateEnvironment"):
            return .auth(reason(.apnsForbidden), .configuration)
        case (403, "ExpiredProviderToken"), (403, "InvalidProviderToken"), (403, "MissingProviderToken"):
            return .auth(reason(.apnsProviderToken), .refresh)
        case (403, _):
            return .auth(reason(.apnsForbidden), .configuration)
        case (413, _):
            return .rejected(reason(.apnsPayloadTooLarge))
        case (429, _):
            return .transient(reason(.apnsTooManyRequests), retryAfter: retryAfter)
        case (500..<600, _):
            return .transient(reason(.apnsServerError), retryAfter: retryAfter)
        case (400, _):
            return .rejected(reason(.apnsBadRequest))
        default:
            return .rejected(reason(.apnsHTTPError))
        }
    }
}

/// `{"reason": "Unregistered", "timestamp": 1458114061260}`; both optional.
struct APNsErrorBody {
    var reason: String?
    /// The 410 `timestamp` (milliseconds since the epoch): when the token stopped being valid.
    var timestamp: Date?

    init(_ body: [UInt8]) {
        guard !body.isEmpty, let object = JSON.object(body) else { return }
        reason = object["reason"] as? String
        if let millis = (object["timestamp"] as? NSNumber)?.doubleValue {
            timestamp = Date(timeIntervalSince1970: millis / 1000)
        }
    }
}
