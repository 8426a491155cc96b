import PushCrypto
import PushProtocol
import Testing

@Suite struct HTTPSignerTests {
    let key = try! AccountKey(seed: Array(repeating: 7, count: 32))
    var signer: HTTPSigner { HTTPSigner(key: key, now: { 1_700_000_000 }, nonce: { "0123456789abcdefXYZ" }) }

    @Test func aGetWithoutQueryCoversMethodAndPath() throws {
        let headers = try signer.sign(method: "GET", path: "/v1/tokens")
        #expect(headers.contentDigest == nil)
        #expect(headers.signatureInput == #"push=("@method" "@path");created=1700000000;nonce="0123456789abcdefXYZ";keyid="\#(key.accountID.string)";alg="ed25519""#)
        #expect(headers.fields.map(\.name) == ["Signature-Input", "Signature"])
    }

    @Test func theSignatureIsOverTheRFC9421Base() throws {
        let headers = try signer.sign(method: "POST", path: "/v1/notify", query: "a=1", body: Array("hello".utf8))
        let base = """
            "@method": POST
            "@path": /v1/notify
            "@query": ?a=1
            "content-digest": sha-256=:LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=:
            "@signature-params": ("@method" "@path" "@query" "content-digest");created=1700000000;nonce="0123456789abcdefXYZ";keyid="\(key.accountID.string)";alg="ed25519"
            """
        #expect(headers.contentDigest == "sha-256=:LPJNul+wow4m6DsqxbninhsWHlwfp0JecwQzYpOLmCQ=:")
        let received = try ReceivedSignature(signatureInput: headers.signatureInput, signature: headers.signature, label: "push")
        #expect(key.accountID.verify(signature: received.signature, message: Array(base.utf8)))
        #expect(received.signature == key.sign(Array(base.utf8)))
    }

    @Test func anEmptyQueryIsNoQuery() throws {
        let headers = try signer.sign(method: "GET", path: "/v1/tokens", query: "")
        #expect(!headers.signatureInput.contains("@query"))
    }

    @Test func defaultNoncesAreFreshAndLongEnough() throws {
        let signer = HTTPSigner(key: key)
        let a = try HTTPSignatureVerifier.parse(.init(method: "GET", path: "/", signatureInput: signer.sign(method: "GET", path: "/").signatureInput,
                                                      signature: signer.sign(method: "GET", path: "/").signature))
        let b = try HTTPSignatureVerifier.parse(.init(method: "GET", path: "/", signatureInput: signer.sign(method: "GET", path: "/").signatureInput,
                                                      signature: signer.sign(method: "GET", path: "/").signature))
        #expect(a.nonce.count >= 16)
        #expect(a.nonce != b.nonce)
    }

    @Test func aLineBreakInThePathIsRefusedNotSigned() {
        #expect(throws: HTTPSignatureError.self) { try signer.sign(method: "GET", path: "/a\nb") }
    }
}
