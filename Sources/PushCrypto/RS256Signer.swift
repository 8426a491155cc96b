import COpenSSL

/// RS256: RSASSA-PKCS1-v1_5 with SHA-256 (RFC 7518 §3.3), for the Google service-account
/// assertion that buys FCM access tokens.
public struct RS256Signer: JWTSigner {
    let key: EVPKey
    public var algorithm: String { "RS256" }

    /// An RSA private key from PEM: PKCS#8 `PRIVATE KEY` (a service account's `private_key`)
    /// or PKCS#1 `RSA PRIVATE KEY`. Other key types throw `invalidPEM`.
    public init(pemRepresentation pem: String) throws {
        key = try PEMKey.readRSAPrivateKey(pem)
    }

    /// The modulus length in bits.
    public var keySize: Int { Int(EVP_PKEY_get_bits(key.pointer)) }

    public func sign(_ signingInput: [UInt8]) throws -> [UInt8] {
        let digest = try DigestContext()
        try OpenSSL.check(EVP_DigestSignInit(digest.pointer, nil, EVP_sha256(), nil, key.pointer), "EVP_DigestSignInit")
        var length = 0
        try OpenSSL.check(EVP_DigestSign(digest.pointer, nil, &length, signingInput, signingInput.count), "EVP_DigestSign")
        var signature = [UInt8](repeating: 0, count: length)
        try OpenSSL.check(
            EVP_DigestSign(digest.pointer, &signature, &length, signingInput, signingInput.count), "EVP_DigestSign")
        return Array(signature.prefix(length))
    }
}
