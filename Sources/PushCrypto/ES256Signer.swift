/// ES256: ECDSA P-256 with SHA-256, signature as 64-byte `r ‖ s` (RFC 7518 §3.4).
/// Used for VAPID (RFC 8292) and APNs provider tokens.
public struct ES256Signer: JWTSigner {
    public let key: P256.PrivateKey
    public var algorithm: String { "ES256" }

    public init(key: P256.PrivateKey) { self.key = key }

    /// A signer from PEM: PKCS#8 (an APNs `.p8` file) or SEC1 `EC PRIVATE KEY`.
    public init(pemRepresentation pem: String) throws { key = try P256.PrivateKey(pemRepresentation: pem) }

    public func sign(_ signingInput: [UInt8]) throws -> [UInt8] { try key.signature(for: signingInput) }
}
