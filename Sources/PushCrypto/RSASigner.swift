import COpenSSL

/// A JWT signer with an RSA private key over SHA-256; `Scheme` fixes the padding and the `alg`:
/// `RS256Signer` (PKCS#1 v1.5) and `PS256Signer` (PSS).
public struct RSASigner<Scheme: RSASignatureScheme>: JWTSigner {
    let key: EVPKey
    public var algorithm: String { Scheme.algorithm }

    /// An RSA private key from PEM: PKCS#8 `PRIVATE KEY` (a service account's `private_key`)
    /// or PKCS#1 `RSA PRIVATE KEY`. Other key types throw `invalidPEM`.
    public init(pemRepresentation pem: String) throws {
        key = try PEMKey.readRSAPrivateKey(pem)
    }

    /// The modulus length in bits.
    public var keySize: Int { Int(EVP_PKEY_get_bits(key.pointer)) }

    public func sign(_ signingInput: [UInt8]) throws -> [UInt8] {
        try RSASignature.sign(signingInput, key: key, pss: Scheme.pss)
    }
}

/// The padding and JWS `alg` of an `RSASigner`.
public protocol RSASignatureScheme: Sendable {
    static var algorithm: String { get }
    /// PSS (MGF1-SHA-256, a 32-byte salt) when true, PKCS#1 v1.5 when false.
    static var pss: Bool { get }
}

/// RS256: RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3), for the Google service-account
/// assertion that buys FCM access tokens.
public enum RS256: RSASignatureScheme {
    public static let algorithm = "RS256"
    public static let pss = false
}

/// PS256: RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt (RFC 7518 §3.5), for the
/// HarmonyOS service-account JWT that Huawei's Push Kit v3 takes as its bearer token
/// ("SHA256withRSA/PSS", Spec/providers.md "Huawei Push Kit").
public enum PS256: RSASignatureScheme {
    public static let algorithm = "PS256"
    public static let pss = true
}

public typealias RS256Signer = RSASigner<RS256>
public typealias PS256Signer = RSASigner<PS256>

/// An RSA signature over SHA-256 through `EVP_DigestSign`: PKCS#1 v1.5 (RS256) or PSS with
/// MGF1-SHA-256 and a salt as long as the digest (PS256, RFC 7518 §3.5).
enum RSASignature {
    static func sign(_ input: [UInt8], key: EVPKey, pss: Bool) throws -> [UInt8] {
        let digest = try DigestContext()
        var context: OpaquePointer?
        try OpenSSL.check(EVP_DigestSignInit(digest.pointer, &context, EVP_sha256(), nil, key.pointer), "EVP_DigestSignInit")
        if pss {
            try OpenSSL.check(EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING), "EVP_PKEY_CTX_set_rsa_padding")
            try OpenSSL.check(EVP_PKEY_CTX_set_rsa_pss_saltlen(context, RSA_PSS_SALTLEN_DIGEST), "EVP_PKEY_CTX_set_rsa_pss_saltlen")
            try OpenSSL.check(EVP_PKEY_CTX_set_rsa_mgf1_md(context, EVP_sha256()), "EVP_PKEY_CTX_set_rsa_mgf1_md")
        }
        var length = 0
        try OpenSSL.check(EVP_DigestSign(digest.pointer, nil, &length, input, input.count), "EVP_DigestSign")
        var signature = [UInt8](repeating: 0, count: length)
        try OpenSSL.check(EVP_DigestSign(digest.pointer, &signature, &length, input, input.count), "EVP_DigestSign")
        return Array(signature.prefix(length))
    }
}
