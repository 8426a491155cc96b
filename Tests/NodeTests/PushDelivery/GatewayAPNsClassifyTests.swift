import Foundation
import Testing
@testable import PushDelivery

/// APNs answers as Apple sends them: `{"reason": …}`, with `timestamp` on 410.
@Suite struct GatewayAPNsClassifyTests {
    let now = Fixtures.now

    func classify(_ status: Int, _ reason: String? = nil, headers: [String: String] = [:]) -> DeliveryOutcome {
        APNsGateway.classify(Fixtures.answer(status, reason.map { #"{"reason":"\#($0)"}"# } ?? "", headers: headers), now: now)
    }

    @Test func success() {
        #expect(APNsGateway.classify(Fixtures.answer(200, "", headers: ["apns-id": "c3889197-363d-41b4-b01e-df0941c13eac"]),
                                     now: now) == .delivered)
    }

    @Test func goneTokensAreDeadSinceTheirTimestamp() {
        let body = #"{"reason":"Unregistered","timestamp":1458114061260}"#
        #expect(APNsGateway.classify(Fixtures.answer(410, body), now: now)
            == .dead(DeliveryReason(.apnsUnregistered, detail: "Unregistered"),
                     invalidSince: Date(timeIntervalSince1970: 1_458_114_061.26)))
        #expect(APNsGateway.classify(Fixtures.answer(410, #"{"reason":"ExpiredToken"}"#), now: now)
            == .dead(DeliveryReason(.apnsUnregistered, detail: "ExpiredToken"), invalidSince: nil))
    }

    @Test func badTokensAreDead() {
        #expect(classify(400, "BadDeviceToken") == .dead(DeliveryReason(.apnsBadDeviceToken, detail: "BadDeviceToken")))
        #expect(classify(400, "DeviceTokenNotForTopic")
            == .dead(DeliveryReason(.apnsDeviceTokenNotForTopic, detail: "DeviceTokenNotForTopic")))
    }

    @Test func staleProviderTokensRefresh() {
        for reason in ["ExpiredProviderToken", "InvalidProviderToken", "MissingProviderToken"] {
            #expect(classify(403, reason) == .auth(DeliveryReason(.apnsProviderToken, detail: reason), .refresh))
        }
    }

    @Test func configurationRefusals() {
        #expect(classify(403, "BadCertificateEnvironment")
            == .auth(DeliveryReason(.apnsForbidden, detail: "BadCertificateEnvironment"), .configuration))
        #expect(classify(403, "Forbidden") == .auth(DeliveryReason(.apnsForbidden, detail: "Forbidden"), .configuration))
        #expect(classify(400, "TopicDisallowed") == .auth(DeliveryReason(.apnsForbidden, detail: "TopicDisallowed"), .configuration))
        #expect(classify(400, "BadTopic") == .auth(DeliveryReason(.apnsForbidden, detail: "BadTopic"), .configuration))
    }

    @Test func transientAnswers() {
        #expect(classify(429, "TooManyRequests") == .transient(DeliveryReason(.apnsTooManyRequests, detail: "TooManyRequests"), retryAfter: nil))
        #expect(classify(429, "TooManyProviderTokenUpdates", headers: ["retry-after": "60"])
            == .transient(DeliveryReason(.apnsTooManyRequests, detail: "TooManyProviderTokenUpdates"), retryAfter: 60))
        #expect(classify(500, "InternalServerError") == .transient(DeliveryReason(.apnsServerError, detail: "InternalServerError"), retryAfter: nil))
        #expect(classify(503, "ServiceUnavailable") == .transient(DeliveryReason(.apnsServerError, detail: "ServiceUnavailable"), retryAfter: nil))
        #expect(classify(503, "Shutdown") == .transient(DeliveryReason(.apnsServerError, detail: "Shutdown"), retryAfter: nil))
        #expect(classify(502) == .transient(DeliveryReason(.apnsServerError, detail: "502"), retryAfter: nil))
    }

    @Test func rejectedAnswers() {
        #expect(classify(413, "PayloadTooLarge") == .rejected(DeliveryReason(.apnsPayloadTooLarge, detail: "PayloadTooLarge")))
        for reason in ["BadCollapseId", "BadExpirationDate", "BadPriority", "PayloadEmpty", "InvalidPushType", "BadMessageId"] {
            #expect(classify(400, reason) == .rejected(DeliveryReason(.apnsBadRequest, detail: reason)))
        }
        #expect(classify(405, "MethodNotAllowed") == .rejected(DeliveryReason(.apnsHTTPError, detail: "MethodNotAllowed")))
        #expect(classify(404, "BadPath") == .rejected(DeliveryReason(.apnsHTTPError, detail: "BadPath")))
        #expect(classify(400) == .rejected(DeliveryReason(.apnsBadRequest, detail: "400")))
    }
}
