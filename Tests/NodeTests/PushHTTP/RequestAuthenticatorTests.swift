import PushCrypto
import PushProtocol
import Testing
@testable import PushHTTP
@testable import PushStore

@Suite struct RequestAuthenticatorTests {
    let now: Double = 1_800_000_000
    var authenticator: RequestAuthenticator {
        RequestAuthenticator(clockSkew: 300, replayCache: MemoryReplayCache(capacity: 100), now: { [now] in now })
    }

    func code(_ request: HTTPRequest, _ auth: RequestAuthenticator) -> APIError.Code? {
        do {
            _ = try auth.authenticate(request)
            return nil
        } catch {
            #expect(ErrorStatus.byCode[error.code] == 401)
            return error.code
        }
    }

    @Test func acceptsAValidSignatureAndNamesTheCaller() throws {
        let request = HTTPRequest.signed("POST", "/v1/notify", body: Array("{}".utf8), created: Int64(now))
        #expect(try authenticator.authenticate(request) == Keys.alice.accountID)
    }

    @Test func noSignatureHeadersIsMissing() {
        #expect(code(HTTPRequest(method: "GET", path: "/v1/tokens"), authenticator) == .authMissing)
    }

    @Test func onlyOneHeaderIsMalformed() {
        var request = HTTPRequest.signed("GET", "/v1/tokens", created: Int64(now))
        request.headers["signature"] = nil
        #expect(code(request, authenticator) == .authMalformed)
        request = HTTPRequest.signed("GET", "/v1/tokens", created: Int64(now))
        request.headers["signature-input"] = nil
        #expect(code(request, authenticator) == .authMalformed)
    }

    @Test func unparsableHeaderIsMalformed() {
        var request = HTTPRequest.signed("GET", "/v1/tokens", created: Int64(now))
        request.headers["signature-input"] = "push=(\"@method\" \"@path\";created=1"
        #expect(code(request, authenticator) == .authMalformed)
    }

    @Test func tamperedBodyOrPathIsInvalidSignature() {
        var request = HTTPRequest.signed("POST", "/v1/notify", body: Array("{\"a\":1}".utf8), created: Int64(now))
        request.body = Array("{\"a\":2}".utf8)
        #expect(code(request, authenticator) == .authInvalidSignature)
        request = HTTPRequest.signed("GET", "/v1/tokens", created: Int64(now))
        request.path = "/v1/subscriptions"
        #expect(code(request, authenticator) == .authInvalidSignature)
    }

    @Test func createdBeyondTheSkewInEitherDirectionIsExpired() {
        let past = HTTPRequest.signed("GET", "/v1/tokens", created: Int64(now) - 301)
        let future = HTTPRequest.signed("GET", "/v1/tokens", created: Int64(now) + 301)
        #expect(code(past, authenticator) == .authExpired)
        #expect(code(future, authenticator) == .authExpired)
    }

    @Test func createdAtTheEdgeOfTheSkewIsAccepted() {
        let auth = authenticator
        #expect(code(HTTPRequest.signed("GET", "/v1/tokens", created: Int64(now) - 300), auth) == nil)
        #expect(code(HTTPRequest.signed("GET", "/v1/tokens", created: Int64(now) + 300), auth) == nil)
    }

    @Test func expiredCheckComesBeforeSignatureCheck() {
        var request = HTTPRequest.signed("GET", "/v1/tokens", created: Int64(now) - 1000)
        request.path = "/v1/other"
        #expect(code(request, authenticator) == .authExpired)
    }

    @Test func theSameNonceTwiceIsReplayed() {
        let auth = authenticator
        let first = HTTPRequest.signed("GET", "/v1/tokens", created: Int64(now), nonce: "nonce-0123456789abcdef")
        let again = HTTPRequest.signed("GET", "/v1/subscriptions", created: Int64(now), nonce: "nonce-0123456789abcdef")
        #expect(code(first, auth) == nil)
        #expect(code(first, auth) == .authReplayed)
        #expect(code(again, auth) == .authReplayed)
    }

    @Test func theSameNonceFromAnotherAccountIsNotAReplay() {
        let auth = authenticator
        let nonce = "shared-nonce-0123456789"
        #expect(code(HTTPRequest.signed("GET", "/v1/tokens", key: Keys.alice, created: Int64(now), nonce: nonce), auth) == nil)
        #expect(code(HTTPRequest.signed("GET", "/v1/tokens", key: Keys.bob, created: Int64(now), nonce: nonce), auth) == nil)
    }

    @Test func aRequestThatFailedVerificationDoesNotBurnItsNonce() {
        let auth = authenticator
        let nonce = "victim-nonce-0123456789"
        var forged = HTTPRequest.signed("GET", "/v1/tokens", created: Int64(now), nonce: nonce)
        forged.path = "/v1/subscriptions"
        #expect(code(forged, auth) == .authInvalidSignature)
        #expect(code(HTTPRequest.signed("GET", "/v1/tokens", created: Int64(now), nonce: nonce), auth) == nil)
    }

    @Test func anExpiresParameterInThePastIsExpired() throws {
        // Sign by hand with an extra `expires` parameter the profile allows.
        let key = Keys.alice
        let params = StructuredField.InnerList(
            [StructuredField.Item(.string("@method")), StructuredField.Item(.string("@path"))],
            parameters: [("created", .integer(Int64(now) - 10)), ("expires", .integer(Int64(now) - 1)),
                         ("nonce", .string("expires-nonce-0123456")), ("keyid", .string(key.accountID.string)),
                         ("alg", .string("ed25519"))])
        let base = try HTTPSignatureBase(components: [.method("GET"), .path("/v1/tokens")], signatureParams: params)
        let request = HTTPRequest(method: "GET", path: "/v1/tokens", headers: [
            "signature-input": "push=" + params.serialized,
            "signature": "push=" + StructuredField.BareItem.bytes(key.sign(base.bytes)).serialized,
        ])
        #expect(code(request, authenticator) == .authExpired)
    }
}
