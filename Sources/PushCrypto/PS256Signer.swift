import COpenSSL

/// PS256: RSASSA-PSS with SHA-256, MGF1 with SHA-256 and a 32-byte salt (RFC 7518 §3.5), for the
/// HarmonyOS service-account JWT that Huawei's Push Kit v3 takes as its bearer token
/// ("SHA256withRSA/PSS", Spec/providers.md "HarmonyOS Push Kit v3").
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
        let digest = try DigestContext()
        var context: OpaquePointer?
        try OpenSSL.check(EVP_DigestSignInit(digest.pointer, &context, EVP_sha256(), nil, key.pointer), "EVP_DigestSignInit")
        try OpenSSL.check(EVP_PKEY_CTX_set_rsa_padding(context, RSA_PKCS1_PSS_PADDING), "EVP_PKEY_CTX_set_rsa_padding")
        // The salt as long as the digest (RFC 7518 §3.5); MGF1 follows the signature digest.
        try OpenSSL.check(EVP_PKEY_CTX_set_rsa_pss_saltlen(context, RSA_PSS_SALTLEN_DIGEST), "EVP_PKEY_CTX_set_rsa_pss_saltlen")
        try OpenSSL.check(EVP_PKEY_CTX_set_rsa_mgf1_md(context, EVP_sha256()), "EVP_PKEY_CTX_set_rsa_mgf1_md")
        var length = 0
        try OpenSSL.check(EVP_DigestSign(digest.pointer, nil, &length, signingInput, signingInput.count), "EVP_DigestSign")
        var signature = [UInt8](repeating: 0, count: length)
        try OpenSSL.check(
            EVP_DigestSign(digest.pointer, &signature, &length, signingInput, signingInput.count), "EVP_DigestSign")
        return Array(signature.prefix(length))
    }
}
