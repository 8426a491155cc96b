import COpenSSL

/// PS256: RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt (RFC 7518 §3.5), for the
/// HarmonyOS service-account JWT that Huawei's Push Kit v3 takes as its bearer token
/// ("SHA256withRSA/PSS", Spec/providers.md "Huawei Push Kit").
public struct PS256Signer: JWTSigner {
    let key: EVPKey
    public var algorithm: String { "PS256" }

    /// An RSA private key from PEM: PKCS#8 `PRIVATE KEY` (a Huawei service account's
    /// `private_key`) or PKCS#1 `RSA PRIVATE KEY`. Other key types throw `invalidPEM`.
    public init(pemRepresentation pem: String) throws {
        key = try PEMKey.readRSAPrivateKey(pem)
    }

    /// The modulus length in bits.
    public var keySize: Int { Int(EVP_PKEY_get_bits(key.pointer)) }

    public func sign(_ signingInput: [UInt8]) throws -> [UInt8] {
        try RSASignature.sign(signingInput, key: key, pss: true)
    }
}
