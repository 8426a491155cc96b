import Foundation
import PushCrypto

/// Signs requests for pushnode with an account key (PROTOCOL §2): produces `Content-Digest`
/// (when there is a body), `Signature-Input` and `Signature`.
///
/// - SeeAlso: RFC 9421 §3.1 (creating a signature), RFC 9530 (Content-Digest).
public struct HTTPSigner: Sendable {
    /// The header fields to add to the request.
    public struct Headers: Sendable, Equatable {
        public var contentDigest: String?
        public var signatureInput: String
        public var signature: String

        /// `(name, value)` pairs in the order to send them.
        public var fields: [(name: String, value: String)] {
            var out: [(String, String)] = []
            if let contentDigest { out.append(("Content-Digest", contentDigest)) }
            out.append(("Signature-Input", signatureInput))
            out.append(("Signature", signature))
            return out
        }
    }

    public let key: AccountKey
    private let now: @Sendable () -> Int64
    private let makeNonce: @Sendable () -> String

    /// - Parameters:
    ///   - now: Unix seconds for `created` (injectable for tests and vectors).
    ///   - nonce: A fresh nonce of at least 16 characters per call.
    public init(key: AccountKey,
                now: @escaping @Sendable () -> Int64 = HTTPSigner.unixTime,
                nonce: @escaping @Sendable () -> String = HTTPSigner.randomNonce) {
        self.key = key
        self.now = now
        self.makeNonce = nonce
    }

    /// Signs one request. `path` is the request path without the query; `query` is the raw
    /// query string without `?` (nil or empty when there is none). Throws `.malformed` only when
    /// method, path or query contain a line break, which no HTTP request can carry.
    public func sign(method: String, path: String, query: String? = nil, body: [UInt8] = []) throws(HTTPSignatureError) -> Headers {
        let contentDigest = body.isEmpty ? nil : ContentDigest.header(for: body)
        let names = HTTPSignatureProfile.componentNames(query: query, body: body)
        let params = StructuredField.InnerList(
            names.map { StructuredField.Item(.string($0)) },
            parameters: [
                ("created", .integer(now())),
                ("nonce", .string(makeNonce())),
                ("keyid", .string(key.accountID.string)),
                ("alg", .string(HTTPSignatureProfile.algorithm)),
            ])
        let components = names.map { name in
            HTTPSignatureBase.Component(
                name: name,
                value: HTTPSignatureProfile.value(of: name, method: method, path: path, query: query,
                                                  contentDigest: contentDigest)!)
        }
        let base = try HTTPSignatureBase(components: components, signatureParams: params)
        let signature = key.sign(base.bytes)
        let label = HTTPSignatureProfile.label
        return Headers(contentDigest: contentDigest,
                       signatureInput: label + "=" + params.serialized,
                       signature: label + "=" + StructuredField.BareItem.bytes(signature).serialized)
    }

    /// The current Unix time in whole seconds.
    @Sendable public static func unixTime() -> Int64 { Int64(Date().timeIntervalSince1970) }

    /// 16 random bytes as base64url: 22 characters.
    @Sendable public static func randomNonce() -> String { Base64.encodeURL(SecureRandom.bytes(16)) }
}
