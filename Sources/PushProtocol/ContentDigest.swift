import PushCrypto

/// The RFC 9530 `Content-Digest` field with the `sha-256` algorithm.
///
/// - SeeAlso: RFC 9530 §2 (the field), §5 (algorithm keys).
public enum ContentDigest {
    /// `sha-256=:<base64 SHA-256(body)>:`
    public static func header(for body: [UInt8]) -> String {
        "sha-256=:" + Base64.encode(SHA256.hash(body)) + ":"
    }

    /// Checks a received `Content-Digest` against the body. Other algorithms may be listed
    /// beside `sha-256`; only `sha-256` is checked and it must be present.
    public static func verify(header: String, body: [UInt8]) throws(HTTPSignatureError) {
        let dictionary: StructuredField.Dictionary
        do {
            dictionary = try StructuredField.parseDictionary(header)
        } catch {
            throw .malformed("Content-Digest does not parse: \(error)")
        }
        guard let member = dictionary.first(where: { $0.key == "sha-256" })?.member else {
            throw .invalidSignature("Content-Digest has no sha-256 digest")
        }
        guard case .item(let item) = member, case .bytes(let digest) = item.value else {
            throw .malformed("Content-Digest sha-256 is not a byte sequence")
        }
        guard ConstantTime.equals(digest, SHA256.hash(body)) else {
            throw .invalidSignature("Content-Digest does not match the body")
        }
    }
}
