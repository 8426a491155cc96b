import Foundation
import PushProtocol
import Testing
@testable import PushDelivery

/// Huawei Push Kit answers (v1 and v3 share the result codes) in the shapes Huawei documents.
@Suite struct GatewayPushKitClassifyTests {
    let now = Fixtures.now

    func classify(_ status: Int, _ body: String, headers: [String: String] = [:]) -> DeliveryOutcome {
        PushKit.classify(Fixtures.answer(status, body, headers: headers), now: now)
    }

    static func answer(_ code: String, _ msg: String) -> String {
        let escaped = msg.replacingOccurrences(of: "\"", with: "\\\"")
        return #"{"code":"\#(code)","msg":"\#(escaped)","requestId":"157440817480000000001"}"#
    }

    @Test func success() {
        #expect(classify(200, Self.answer("80000000", "Success")) == .delivered)
        #expect(classify(200, "") == .delivered)
    }

    @Test func partialSuccessNamesTheRefusedToken() {
        let v1 = Self.answer("80100000", #"{"success":0,"failure":1,"illegal_tokens":["MAAALgE4"]}"#)
        #expect(classify(200, v1) == .dead(DeliveryReason(.pushkitInvalidToken, detail: "illegal_token")))
        let v3 = Self.answer("80100000", #"{"illegalTokens":{"tokenFormatError":["MAAALgE4"]},"success":0,"failure":1}"#)
        #expect(classify(200, v3) == .dead(DeliveryReason(.pushkitInvalidToken, detail: "tokenFormatError")))
        let noRight = Self.answer("80100000", #"{"illegalTokens":{"noPushTypeRight":["MAAALgE4"]},"success":0,"failure":1}"#)
        #expect(classify(200, noRight) == .rejected(DeliveryReason(.pushkitNoRight, detail: "noPushTypeRight")))
        let penalty = Self.answer("80100000", #"{"illegalTokens":{"disableSendHuaweiMsgBecauseOfPenalty":["M"]}}"#)
        #expect(classify(200, penalty) == .auth(DeliveryReason(.pushkitPermissionDenied,
                                                               detail: "disableSendHuaweiMsgBecauseOfPenalty"), .configuration))
        // Nothing listed: the one token sent went through.
        #expect(classify(200, Self.answer("80100000", #"{"success":1,"failure":0,"illegal_tokens":[]}"#)) == .delivered)
    }

    @Test func allTokensInvalidIsDead() {
        #expect(classify(400, Self.answer("80300007", "All the tokens are invalid"))
            == .dead(DeliveryReason(.pushkitInvalidToken, detail: "illegal_token")))
        let v3 = Self.answer("80300007", #"{"illegalTokens":{"tokenPlatformNotSupport":["M"]},"success":0,"failure":1}"#)
        #expect(classify(400, v3) == .dead(DeliveryReason(.pushkitInvalidToken, detail: "tokenPlatformNotSupport")))
    }

    @Test func refusedCredentialsRenewOnceAndConfigurationDoesNot() {
        for code in ["80200001", "80200003", "80200005"] {
            #expect(classify(401, Self.answer(code, "Oauth Token expired")) == .auth(DeliveryReason(.pushkitCredentialRefused, detail: code), .refresh))
        }
        #expect(classify(401, "") == .auth(DeliveryReason(.pushkitCredentialRefused, detail: "401"), .refresh))
        for code in ["80300002", "80300036", "80300037"] {
            #expect(classify(403, Self.answer(code, "No permission")) == .auth(DeliveryReason(.pushkitPermissionDenied, detail: code), .configuration))
        }
        #expect(classify(404, "") == .auth(DeliveryReason(.pushkitNotFound, detail: "404"), .configuration))
    }

    @Test func requestProblemsAreRejectedAndTheTokenKept() {
        #expect(classify(413, Self.answer("80300008", "Push message size is too long")) == .rejected(DeliveryReason(.pushkitPayloadTooLarge, detail: "80300008")))
        for code in ["80100001", "80100003", "80100004", "80300010"] {
            #expect(classify(400, Self.answer(code, "Illegal payload")) == .rejected(DeliveryReason(.pushkitInvalidRequest, detail: code)))
        }
        #expect(classify(403, Self.answer("80300011", "No permission to send high-level message")) == .rejected(DeliveryReason(.pushkitNoRight, detail: "80300011")))
        #expect(classify(400, "<html>") == .rejected(DeliveryReason(.pushkitInvalidRequest, detail: "400")))
    }

    @Test func flowControlHoldsTheWholeAppAsHuaweiAsks() {
        #expect(classify(503, "") == .transient(DeliveryReason(.pushkitFlowControl, detail: "503"), retryAfter: 60, scope: .origin))
        #expect(classify(429, "", headers: ["retry-after": "120"])
            == .transient(DeliveryReason(.pushkitFlowControl, detail: "429"), retryAfter: 120, scope: .origin))
        #expect(classify(503, Self.answer("81000001", "Inner Error"))
            == .transient(DeliveryReason(.pushkitFlowControl, detail: "81000001"), retryAfter: 60, scope: .origin))
    }

    @Test func internalErrorsAreTransient() {
        #expect(classify(500, Self.answer("81000001", "Inner Error")) == .transient(DeliveryReason(.pushkitInternal, detail: "81000001"), retryAfter: nil))
        #expect(classify(502, "") == .transient(DeliveryReason(.pushkitInternal, detail: "502"), retryAfter: nil))
    }
}
