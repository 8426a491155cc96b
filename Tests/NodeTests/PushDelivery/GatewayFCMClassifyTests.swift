import Foundation
import PushProtocol
import Testing
@testable import PushDelivery
@testable import PushStore

/// FCM v1 answers in the exact shapes FCM sends them.
@Suite struct GatewayFCMClassifyTests {
    let now = Fixtures.now

    func classify(_ status: Int, _ body: String, headers: [String: String] = [:]) -> DeliveryOutcome {
        FCMGateway.classify(Fixtures.answer(status, body, headers: headers), now: now)
    }

    static func fcmError(_ code: Int, _ message: String, _ status: String, errorCode: String?) -> String {
        let details = errorCode.map {
            #","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"\#($0)"}]"#
        } ?? ""
        return #"{"error":{"code":\#(code),"message":"\#(message)","status":"\#(status)"\#(details)}}"#
    }

    @Test func success() {
        #expect(classify(200, #"{"name":"projects/pushnode-test/messages/0:1700000000000000%31bd1c9ef9fd7ecd"}"#) == .delivered)
    }

    @Test func unregisteredIsDead() {
        let body = #"{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}"#
        #expect(classify(404, body) == .dead(DeliveryReason(.fcmUnregistered, detail: "UNREGISTERED")))
    }

    @Test func invalidTokenMessageIsDead() {
        let body = Self.fcmError(400, "The registration token is not a valid FCM registration token", "INVALID_ARGUMENT",
                                 errorCode: "INVALID_ARGUMENT")
        #expect(classify(400, body) == .dead(DeliveryReason(.fcmInvalidToken, detail: "INVALID_ARGUMENT")))
    }

    @Test func invalidTokenFieldViolationIsDead() {
        let body = #"{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"},{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.token","description":"Invalid registration token"}]}]}}"#
        #expect(classify(400, body) == .dead(DeliveryReason(.fcmInvalidToken, detail: "INVALID_ARGUMENT")))
    }

    /// An oversize payload gets the same generic message, without a token violation:
    /// the reference node pruned on this; we keep the token.
    @Test func payloadProblemsKeepTheToken() {
        let tooBig = #"{"error":{"code":400,"message":"Request contains an invalid argument.","status":"INVALID_ARGUMENT"}}"#
        #expect(classify(400, tooBig) == .rejected(DeliveryReason(.fcmInvalidArgument, detail: "INVALID_ARGUMENT")))
        let recipient = #"{"error":{"code":400,"message":"Recipient of the message is not set.","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message","description":"Recipient of the message is not set."}]},{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"INVALID_ARGUMENT"}]}}"#
        #expect(classify(400, recipient) == .rejected(DeliveryReason(.fcmInvalidArgument, detail: "INVALID_ARGUMENT")))
        let badValue = #"{"error":{"code":400,"message":"Invalid value at 'message.android.ttl' (type.googleapis.com/google.protobuf.Duration), \"-1s\"","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"message.android.ttl","description":"Invalid value at 'message.android.ttl'"}]}]}}"#
        #expect(classify(400, badValue) == .rejected(DeliveryReason(.fcmInvalidArgument, detail: "INVALID_ARGUMENT")))
        #expect(classify(400, "") == .rejected(DeliveryReason(.fcmInvalidArgument, detail: "400")))
    }

    @Test func senderIdMismatchIsDead() {
        let body = Self.fcmError(403, "SenderId mismatch", "PERMISSION_DENIED", errorCode: "SENDER_ID_MISMATCH")
        #expect(classify(403, body) == .dead(DeliveryReason(.fcmSenderIdMismatch, detail: "SENDER_ID_MISMATCH")))
    }

    @Test func thirdPartyAuthIsConfiguration() {
        let body = Self.fcmError(401, "Auth error from APNS or Web Push Service", "UNAUTHENTICATED",
                                 errorCode: "THIRD_PARTY_AUTH_ERROR")
        #expect(classify(401, body) == .auth(DeliveryReason(.fcmThirdPartyAuth, detail: "THIRD_PARTY_AUTH_ERROR"), .configuration))
    }

    @Test func bare401RefreshesTheAccessToken() {
        let body = Self.fcmError(401, "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential. See https://developers.google.com/identity/sign-in/web/devconsole-project.", "UNAUTHENTICATED", errorCode: nil)
        #expect(classify(401, body) == .auth(DeliveryReason(.fcmUnauthenticated, detail: "UNAUTHENTICATED"), .refresh))
        #expect(classify(401, "") == .auth(DeliveryReason(.fcmUnauthenticated, detail: "401"), .refresh))
    }

    /// Without an FCM error code a 403 or 404 is our configuration (service account, project id),
    /// never a reason to prune.
    @Test func bare403And404AreConfiguration() {
        let denied = Self.fcmError(403, "Permission 'cloudmessaging.messages.create' denied on resource '//cloudresourcemanager.googleapis.com/projects/wrong' (or it may not exist).", "PERMISSION_DENIED", errorCode: nil)
        #expect(classify(403, denied) == .auth(DeliveryReason(.fcmPermissionDenied, detail: "PERMISSION_DENIED"), .configuration))
        let missing = Self.fcmError(404, "Requested entity was not found.", "NOT_FOUND", errorCode: nil)
        #expect(classify(404, missing) == .auth(DeliveryReason(.fcmNotFound, detail: "NOT_FOUND"), .configuration))
    }

    @Test func quotaWaitsAtLeastAMinute() {
        let body = Self.fcmError(429, "Quota exceeded for quota metric 'Send requests' and limit 'Send requests per minute' of service 'fcm.googleapis.com' for consumer 'project_number:1234'.", "RESOURCE_EXHAUSTED", errorCode: "QUOTA_EXCEEDED")
        let reason = DeliveryReason(.fcmQuotaExceeded, detail: "QUOTA_EXCEEDED")
        #expect(classify(429, body) == .transient(reason, retryAfter: 60))
        #expect(classify(429, body, headers: ["retry-after": "120"]) == .transient(reason, retryAfter: 120))
        #expect(classify(429, body, headers: ["retry-after": "10"]) == .transient(reason, retryAfter: 60))
        #expect(classify(429, "") == .transient(DeliveryReason(.fcmQuotaExceeded, detail: "429"), retryAfter: 60))
    }

    @Test func serverErrorsAreTransientAndHonourRetryAfter() {
        let unavailable = Self.fcmError(503, "The service is currently unavailable.", "UNAVAILABLE", errorCode: "UNAVAILABLE")
        #expect(classify(503, unavailable, headers: ["retry-after": "30"])
            == .transient(DeliveryReason(.fcmUnavailable, detail: "UNAVAILABLE"), retryAfter: 30))
        let date = "Wed, 01 Jan 2025 00:01:30 GMT"
        #expect(classify(503, unavailable, headers: ["retry-after": date])
            == .transient(DeliveryReason(.fcmUnavailable, detail: "UNAVAILABLE"), retryAfter: 90))
        let internalError = Self.fcmError(500, "Internal error encountered.", "INTERNAL", errorCode: "INTERNAL")
        #expect(classify(500, internalError) == .transient(DeliveryReason(.fcmInternal, detail: "INTERNAL"), retryAfter: nil))
        let html = "<!DOCTYPE html>\n<html lang=en><title>Error 502 (Server Error)!!1</title><p><b>502.</b> <ins>That’s an error.</ins>"
        #expect(classify(502, html) == .transient(DeliveryReason(.fcmServerError, detail: "502"), retryAfter: nil))
        #expect(classify(504, "") == .transient(DeliveryReason(.fcmServerError, detail: "504"), retryAfter: nil))
    }

    @Test func otherClientErrorsAreRejected() {
        #expect(classify(413, "") == .rejected(DeliveryReason(.fcmHTTPError, detail: "413")))
        let conflict = Self.fcmError(409, "Conflict", "ABORTED", errorCode: nil)
        #expect(classify(409, conflict) == .rejected(DeliveryReason(.fcmHTTPError, detail: "ABORTED")))
        #expect(classify(302, "") == .rejected(DeliveryReason(.fcmHTTPError, detail: "302")))
    }
}
