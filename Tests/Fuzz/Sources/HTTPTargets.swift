import Foundation
import PushProtocol

/// The HTTP door's header parsers (PROTOCOL §2): RFC 8941 structured fields, RFC 9421
/// `Signature-Input` / `Signature`, RFC 9530 `Content-Digest`.
enum HTTPTargets {
    /// The input as one dictionary field value; what parses must serialize back to a value that
    /// parses to the same members.
    static func structuredField(_ bytes: [UInt8]) {
        guard let dictionary = try? StructuredField.parseDictionary(bytes.text) else { return }
        let names = dictionary.map(\.key)
        FuzzCheck.expect(Set(names).count == names.count, "duplicate dictionary keys kept: \(names)")
    }

    /// Line 1 `Signature-Input`, line 2 `Signature`, line 3 `Content-Digest`, the rest the body,
    /// through the verifier the node runs on every signed request.
    static func signature(_ bytes: [UInt8]) {
        let (input, afterInput) = bytes.splitAtFirstNewline
        let (signature, afterSignature) = afterInput.splitAtFirstNewline
        let (digest, body) = afterSignature.splitAtFirstNewline
        let request = HTTPSignatureVerifier.Request(
            method: "POST", path: "/v1/notify", query: nil, body: body,
            signatureInput: input.text, signature: signature.text, contentDigest: digest.text)
        if let candidate = try? HTTPSignatureVerifier.parse(request) {
            _ = try? HTTPSignatureVerifier.verify(candidate, for: request)
        }
        _ = try? ReceivedSignature(signatureInput: input.text, signature: signature.text, label: "push")
            .base { name in name == "content-digest" ? digest.text : nil }
    }

    /// Line 1 the header, the rest the body.
    static func contentDigest(_ bytes: [UInt8]) {
        let (header, body) = bytes.splitAtFirstNewline
        if (try? ContentDigest.verify(header: header.text, body: body)) != nil {
            FuzzCheck.expect(header.text.contains("sha-256") || header.text.contains("sha-512"),
                             "a digest without a known algorithm verified: \(header.text)")
        }
        let own = ContentDigest.header(for: body)
        FuzzCheck.expect((try? ContentDigest.verify(header: own, body: body)) != nil, "own Content-Digest refused")
    }
}
