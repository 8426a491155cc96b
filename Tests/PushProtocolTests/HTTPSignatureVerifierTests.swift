import PushCrypto
import PushProtocol
import Testing

@Suite struct HTTPSignatureVerifierTests {
    let key = try! AccountKey(seed: Array(repeating: 3, count: 32))

    func signed(_ method: String = "POST", _ path: String = "/v1/notify", query: String? = nil,
                body: [UInt8] = Array("{\"x\":1}".utf8), nonce: String = "nonce-0123456789abcdef") -> HTTPSignatureVerifier.Request {
        let headers = try! HTTPSigner(key: key, now: { 1_700_000_000 }, nonce: { nonce })
            .sign(method: method, path: path, query: query, body: body)
        return .init(method: method, path: path, query: query, body: body, signatureInput: headers.signatureInput,
                     signature: headers.signature, contentDigest: headers.contentDigest)
    }

    /// Re-signs a hand-written Signature-Input so only the profile rule under test is broken.
    func resigned(_ request: HTTPSignatureVerifier.Request, input: String) -> HTTPSignatureVerifier.Request {
        var request = request
        request.signatureInput = "push=" + input
        let received = try! ReceivedSignature(signatureInput: request.signatureInput!, signature: request.signature!, label: "push")
        let base = try! received.base { name in
            switch name {
            case "@method": return request.method
            case "@path": return request.path
            case "@query": return "?" + (request.query ?? "")
            case "content-digest": return request.contentDigest
            default: return nil
            }
        }
        request.signature = "push=" + StructuredField.BareItem.bytes(key.sign(base.bytes)).serialized
        return request
    }

    func failure(_ request: HTTPSignatureVerifier.Request) -> HTTPSignatureError? {
        do {
            _ = try HTTPSignatureVerifier.verify(request)
            return nil
        } catch {
            return error
        }
    }

    func isMalformed(_ request: HTTPSignatureVerifier.Request) -> Bool {
        if case .malformed = failure(request) { return true }
        return false
    }

    func isInvalid(_ request: HTTPSignatureVerifier.Request) -> Bool {
        if case .invalidSignature = failure(request) { return true }
        return false
    }

    @Test func aSignedRequestVerifies() throws {
        let verified = try HTTPSignatureVerifier.verify(signed(query: "a=b"))
        #expect(verified.accountID == key.accountID)
        #expect(verified.created == 1_700_000_000)
        #expect(verified.nonce == "nonce-0123456789abcdef")
        #expect(verified.expires == nil)
    }

    @Test func noHeadersIsMissingAndOneHeaderIsMalformed() {
        var request = signed()
        request.signature = nil
        #expect(isMalformed(request))
        request = signed()
        request.signatureInput = nil
        #expect(isMalformed(request))
        request.signature = nil
        #expect(failure(request) == .missing)
        #expect(HTTPSignatureError.missing.apiError.code == .authMissing)
    }

    @Test func profileViolationsAreMalformed() {
        let base = signed()
        let id = key.accountID.string
        let components = #"("@method" "@path" "content-digest")"#
        #expect(isMalformed(resigned(base, input: components + #";created=1700000000;nonce="short";keyid="\#(id)";alg="ed25519""#)))
        #expect(isMalformed(resigned(base, input: components + #";created=1700000000;nonce="nonce-0123456789abcdef";keyid="\#(id)";alg="rsa-pss-sha512""#)))
        #expect(isMalformed(resigned(base, input: components + #";created=1700000000;nonce="nonce-0123456789abcdef";keyid="\#(id)""#)))
        #expect(isMalformed(resigned(base, input: components + #";nonce="nonce-0123456789abcdef";keyid="\#(id)";alg="ed25519""#)))
        #expect(isMalformed(resigned(base, input: components + #";created="1700000000";nonce="nonce-0123456789abcdef";keyid="\#(id)";alg="ed25519""#)))
        #expect(isMalformed(resigned(base, input: components + #";created=1700000000;nonce="nonce-0123456789abcdef";keyid="test-key";alg="ed25519""#)))
        var parameterized = base
        parameterized.signatureInput = "push=" + #"("@method" "@path" "content-digest";sf)"# + #";created=1700000000;nonce="nonce-0123456789abcdef";keyid="\#(id)";alg="ed25519""#
        #expect(isMalformed(parameterized))
    }

    @Test func anotherLabelOrAnUnparsableFieldIsMalformed() {
        var request = signed()
        request.signatureInput = request.signatureInput!.replacingOccurrences(of: "push=", with: "sig1=")
        #expect(isMalformed(request))
        request = signed()
        request.signature = "push=:not-base64:"
        #expect(isMalformed(request))
        request = signed()
        request.signature = "push=\"text\""
        #expect(isMalformed(request))
    }

    @Test func componentsOtherThanTheRequiredOnesAreInvalid() {
        let base = signed()
        let params = #";created=1700000000;nonce="nonce-0123456789abcdef";keyid="\#(key.accountID.string)";alg="ed25519""#
        #expect(isInvalid(resigned(base, input: #"("@method" "@path")"# + params)))  // digest not covered
        #expect(isInvalid(resigned(base, input: #"("@path" "@method" "content-digest")"# + params)))  // order
        #expect(isInvalid(resigned(signed(query: "a=1"), input: #"("@method" "@path" "content-digest")"# + params)))  // query not covered
    }

    @Test func aChangedRequestIsInvalid() {
        var request = signed(query: "a=1")
        request.query = "a=2"
        #expect(isInvalid(request))
        request = signed()
        request.path = "/v1/notify/silent"
        #expect(isInvalid(request))
        request = signed()
        request.method = "PUT"
        #expect(isInvalid(request))
    }

    @Test func aBodyThatDoesNotMatchItsDigestIsInvalid() {
        var request = signed()
        request.body = Array("{\"x\":2}".utf8)
        #expect(isInvalid(request))
        request = signed()
        request.contentDigest = nil
        #expect(isInvalid(request))
        request = signed()
        request.contentDigest = "sha-512=:AAAA:"
        #expect(isInvalid(request))
    }

    @Test func aSignatureByAnotherKeyIsInvalid() throws {
        var request = signed()
        let other = try AccountKey(seed: Array(repeating: 4, count: 32))
        let forged = try HTTPSigner(key: other, now: { 1_700_000_000 }, nonce: { "nonce-0123456789abcdef" })
            .sign(method: "POST", path: "/v1/notify", body: request.body)
        request.signature = forged.signature
        #expect(isInvalid(request))
        #expect(HTTPSignatureError.invalidSignature("x").apiError.code == .authInvalidSignature)
    }

    @Test func parametersInAnotherOrderStillVerify() {
        let id = key.accountID.string
        let request = resigned(signed(), input: #"("@method" "@path" "content-digest");alg="ed25519";keyid="\#(id)";nonce="nonce-0123456789abcdef";created=1700000000"#)
        #expect(failure(request) == nil)
    }
}
