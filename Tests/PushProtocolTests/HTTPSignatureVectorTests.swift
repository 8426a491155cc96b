import Foundation
import PushCrypto
import PushProtocol
import Testing

private let vectors = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().appendingPathComponent("Spec/vectors")

private func loadJSON(_ name: String) throws -> [String: Any] {
    let data = try Data(contentsOf: vectors.appendingPathComponent(name))
    return try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
}

/// RFC 9421 Appendix B.2.6 (ed25519): our general-purpose base builder reproduces the RFC's
/// signature base byte for byte, our parser reads its headers, and its signature verifies.
@Suite struct RFC9421VectorTests {
    let vector: [String: Any]
    init() throws { vector = try loadJSON("rfc9421-ed25519.json") }

    var components: [HTTPSignatureBase.Component] {
        (vector["components"] as! [[String: String]]).map { HTTPSignatureBase.Component(name: $0["name"]!, value: $0["value"]!) }
    }
    var key: [String: String] { vector["key"] as! [String: String] }

    @Test func theBaseBuilderReproducesTheRFCBase() throws {
        let received = try ReceivedSignature(signatureInput: vector["signatureInput"] as! String,
                                             signature: vector["signature"] as! String, label: "sig-b26")
        let base = try HTTPSignatureBase(components: components, signatureParams: received.signatureParams)
        #expect(base.text == vector["signatureBase"] as! String)
        #expect(received.signatureParams.serialized == vector["signatureParams"] as! String)
    }

    @Test func theRFCSignatureVerifiesAgainstTheRebuiltBase() throws {
        let received = try ReceivedSignature(signatureInput: vector["signatureInput"] as! String,
                                             signature: vector["signature"] as! String, label: "sig-b26")
        #expect(received.componentNames == ["date", "@method", "@path", "@authority", "content-type", "content-length"])
        #expect(received.parameter("keyid") == .string("test-key-ed25519"))
        let values = Dictionary(uniqueKeysWithValues: components.map { ($0.name, $0.value) })
        let base = try received.base { values[$0] }
        let publicKey = try Hex.decode(key["publicKeyHex"]!)
        #expect(Ed25519.verify(signature: received.signature, message: base.bytes, publicKey: publicKey))
        var tampered = base.bytes
        tampered[0] ^= 1
        #expect(!Ed25519.verify(signature: received.signature, message: tampered, publicKey: publicKey))
    }

    @Test func signingTheBaseWithTheRFCKeyGivesTheRFCSignature() throws {
        let pair = try Ed25519.KeyPair(seed: Hex.decode(key["seedHex"]!))
        #expect(Hex.encode(pair.publicKey) == key["publicKeyHex"]!)
        let signature = pair.sign(Array((vector["signatureBase"] as! String).utf8))
        #expect("sig-b26=" + StructuredField.BareItem.bytes(signature).serialized == vector["signature"] as! String)
    }

    @Test func derivedComponentsResolveFromTheRequestAsTheRFCDoes() throws {
        let request = vector["request"] as! [String: Any]
        #expect(HTTPSignatureBase.Component.method(request["method"] as! String).value == "POST")
        #expect(HTTPSignatureBase.Component.path(request["path"] as! String).value == "/foo")
        #expect(HTTPSignatureBase.Component.query(request["query"] as! String).value == "?param=Value&Pet=dog")
        #expect(HTTPSignatureBase.Component.field("Content-Type", " application/json ").name == "content-type")
        #expect(HTTPSignatureBase.Component.field("Content-Type", " application/json ").value == "application/json")
    }
}

/// Signatures made by the Python `http-message-signatures` library
/// (Tests/Interop/make_signature_vectors.py) are accepted by our verifier.
@Suite struct PythonSignedRequestTests {
    @Test func everyPythonSignedRequestVerifies() throws {
        let fixture = try loadJSON("http-signature-profile.json")
        let key = try AccountKey(seed: Hex.decode(fixture["seedHex"] as! String))
        #expect(key.accountID.string == fixture["accountId"] as! String)
        let cases = fixture["cases"] as! [[String: Any]]
        #expect(cases.count == 4)
        for item in cases {
            let headers = item["headers"] as! [String: String]
            let request = HTTPSignatureVerifier.Request(
                method: item["method"] as! String, path: item["path"] as! String, query: item["query"] as? String,
                body: Array((item["body"] as! String).utf8), signatureInput: headers["Signature-Input"],
                signature: headers["Signature"], contentDigest: headers["Content-Digest"])
            let verified = try HTTPSignatureVerifier.verify(request)
            #expect(verified.accountID == key.accountID)
            #expect(verified.created == fixture["created"] as! Int64)
            var tampered = request
            tampered.method = request.method == "GET" ? "HEAD" : "GET"
            #expect(throws: HTTPSignatureError.self) { try HTTPSignatureVerifier.verify(tampered) }
        }
    }
}
