import PushCrypto

/// Verifies a request against pushnode's RFC 9421 profile (PROTOCOL §2): the `push` signature,
/// exactly the required covered components, the `Content-Digest`, and the Ed25519 signature by
/// the account named in `keyid`.
///
/// Time (`created` within the skew window) and replay are the server's business; this check is
/// pure and depends only on the request.
public enum HTTPSignatureVerifier {
    /// The parts of a request the signature covers or is carried in.
    public struct Request: Sendable {
        public var method: String
        public var path: String
        public var query: String?
        public var body: [UInt8]
        public var signatureInput: String?
        public var signature: String?
        public var contentDigest: String?

        public init(method: String, path: String, query: String? = nil, body: [UInt8] = [],
                    signatureInput: String?, signature: String?, contentDigest: String? = nil) {
            self.method = method
            self.path = path
            self.query = query
            self.body = body
            self.signatureInput = signatureInput
            self.signature = signature
            self.contentDigest = contentDigest
        }
    }

    /// What a valid signature establishes.
    public struct Verified: Sendable, Equatable {
        /// The caller: the account whose key made the signature.
        public var accountID: AccountID
        /// `created`, Unix seconds.
        public var created: Int64
        /// `expires`, Unix seconds, when the signer set one.
        public var expires: Int64?
        public var nonce: String
    }

    /// A signature that parsed and fits the profile's parameters, not yet checked against the
    /// request: its claims (account, time, nonce) can be inspected before the Ed25519 verify.
    public struct Candidate: Sendable {
        let received: ReceivedSignature
        let claims: Claims

        public var accountID: AccountID { claims.accountID }
        public var created: Int64 { claims.created }
        public var expires: Int64? { claims.expires }
        public var nonce: String { claims.nonce }
    }

    /// Parses the signature fields and checks the profile's parameters
    /// (`.missing` or `.malformed`).
    public static func parse(_ request: Request) throws(HTTPSignatureError) -> Candidate {
        guard let input = request.signatureInput, let signatureField = request.signature else {
            if request.signatureInput == nil && request.signature == nil { throw .missing }
            throw .malformed(request.signature == nil ? "Signature header is missing" : "Signature-Input header is missing")
        }
        let received = try ReceivedSignature(signatureInput: input, signature: signatureField,
                                             label: HTTPSignatureProfile.label)
        return Candidate(received: received, claims: try Claims(received))
    }

    /// Checks a parsed signature against the request: exactly the required components, the
    /// content digest, and the Ed25519 signature by `keyid` (`.invalidSignature`).
    public static func verify(_ candidate: Candidate, for request: Request) throws(HTTPSignatureError) -> Verified {
        let received = candidate.received
        let required = HTTPSignatureProfile.componentNames(query: request.query, body: request.body)
        guard received.componentNames == required else {
            throw .invalidSignature("covered components must be (\(required.map { "\"\($0)\"" }.joined(separator: " ")))")
        }
        if !request.body.isEmpty {
            guard let digest = request.contentDigest else { throw .invalidSignature("Content-Digest is missing") }
            try ContentDigest.verify(header: digest, body: request.body)
        }
        let base = try received.base { name in
            HTTPSignatureProfile.value(of: name, method: request.method, path: request.path, query: request.query,
                                       contentDigest: request.contentDigest)
        }
        guard candidate.accountID.verify(signature: received.signature, message: base.bytes) else {
            throw .invalidSignature("signature does not verify")
        }
        return Verified(accountID: candidate.accountID, created: candidate.created, expires: candidate.expires,
                        nonce: candidate.nonce)
    }

    /// `parse` then `verify(_:for:)`.
    public static func verify(_ request: Request) throws(HTTPSignatureError) -> Verified {
        try verify(parse(request), for: request)
    }

    /// The signature parameters the profile requires, checked for type and form.
    struct Claims: Sendable {
        let created: Int64
        let expires: Int64?
        let nonce: String
        let accountID: AccountID

        init(_ received: ReceivedSignature) throws(HTTPSignatureError) {
            guard case .integer(let created) = received.parameter("created") else {
                throw .malformed("created must be an integer")
            }
            guard case .string(let nonce) = received.parameter("nonce") else { throw .malformed("nonce must be a string") }
            guard nonce.count >= HTTPSignatureProfile.minimumNonceLength else {
                throw .malformed("nonce must have at least \(HTTPSignatureProfile.minimumNonceLength) characters")
            }
            guard case .string(let keyID) = received.parameter("keyid") else { throw .malformed("keyid must be a string") }
            guard case .string(let alg) = received.parameter("alg"), alg == HTTPSignatureProfile.algorithm else {
                throw .malformed("alg must be \"\(HTTPSignatureProfile.algorithm)\"")
            }
            var expires: Int64?
            if let value = received.parameter("expires") {
                guard case .integer(let n) = value else { throw .malformed("expires must be an integer") }
                expires = n
            }
            guard let account = try? AccountID(keyID) else { throw .malformed("keyid is not an account id") }
            guard received.signature.count == 64 else { throw .invalidSignature("signature must be 64 bytes") }
            self.created = created
            self.expires = expires
            self.nonce = nonce
            self.accountID = account
        }
    }
}
