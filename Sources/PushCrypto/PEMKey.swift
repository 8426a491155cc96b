import COpenSSL

/// Reading and writing private keys in PEM. OpenSSL recognises the label: PKCS#8
/// `PRIVATE KEY` (an APNs `.p8`, a Google service account's `private_key`), SEC1
/// `EC PRIVATE KEY` and PKCS#1 `RSA PRIVATE KEY`. Encrypted keys are refused, never
/// prompted for.
enum PEMKey {
    static func readPrivateKey(_ pem: String) throws -> EVPKey {
        let bio = try MemoryBIO(reading: Array(pem.utf8))
        guard let pkey = PEM_read_bio_PrivateKey(bio.pointer, nil, refusePassphrase, nil) else {
            ERR_clear_error()
            throw CryptoError.invalidPEM("no readable unencrypted private key")
        }
        return EVPKey(taking: pkey)
    }

    /// An RSA private key (RS256, PS256); a key of another type throws `invalidPEM`.
    static func readRSAPrivateKey(_ pem: String) throws -> EVPKey {
        let key = try readPrivateKey(pem)
        guard EVP_PKEY_is_a(key.pointer, OpenSSL.cString("RSA\0")) == 1 else {
            throw CryptoError.invalidPEM("not an RSA key")
        }
        return key
    }

    /// PKCS#8 `-----BEGIN PRIVATE KEY-----`, unencrypted.
    static func writePrivateKey(_ key: EVPKey) throws -> String {
        let bio = try MemoryBIO()
        try OpenSSL.check(PEM_write_bio_PrivateKey(bio.pointer, key.pointer, nil, nil, 0, nil, nil), "PEM_write_bio_PrivateKey")
        var bytes = bio.contents
        defer { ConstantTime.wipe(&bytes) }
        return String(decoding: bytes, as: UTF8.self)
    }
}

/// The PEM passphrase callback: there is no passphrase, so encrypted keys fail to load
/// instead of OpenSSL asking on the terminal.
private func refusePassphrase(
    _ buffer: UnsafeMutablePointer<CChar>?, _ size: Int32, _ writing: Int32, _ context: UnsafeMutableRawPointer?
) -> Int32 { 0 }

extension P256.PrivateKey {
    /// A key from PEM: PKCS#8 `PRIVATE KEY` (as in an APNs `.p8`) or SEC1 `EC PRIVATE KEY`.
    /// Keys of another type or curve throw `invalidPEM`.
    public init(pemRepresentation pem: String) throws {
        let key = try PEMKey.readPrivateKey(pem)
        try P256Import.requireP256(key)
        // A SEC1 file may store its public point compressed; always hand out 0x04 ‖ x ‖ y.
        _ = EVP_PKEY_set_utf8_string_param(
            key.pointer, OpenSSL.cString(OpenSSL.Name.pointFormat), OpenSSL.cString(OpenSSL.Name.uncompressed))
        ERR_clear_error()
        self.init(key: key)
    }

    /// PKCS#8 PEM (`-----BEGIN PRIVATE KEY-----`), unencrypted. Handle with care.
    public var pemRepresentation: String {
        get throws { try PEMKey.writePrivateKey(key) }
    }
}
