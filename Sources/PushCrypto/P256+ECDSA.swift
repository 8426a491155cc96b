import COpenSSL

extension P256.PrivateKey {
    /// ECDSA over SHA-256 of `message`, as the 64-byte `r ‖ s` JWS uses (RFC 7518 §3.4).
    public func signature(for message: [UInt8]) throws -> [UInt8] {
        let digest = try DigestContext()
        try OpenSSL.check(EVP_DigestSignInit(digest.pointer, nil, EVP_sha256(), nil, key.pointer), "EVP_DigestSignInit")
        var der = [UInt8](repeating: 0, count: 80)  // a DER P-256 signature is at most 72 bytes
        var length = der.count
        try message.withUnsafeBufferPointer { m in
            try OpenSSL.check(
                EVP_DigestSign(digest.pointer, &der, &length, m.baseAddress, m.count), "EVP_DigestSign")
        }
        return try ECDSASignature.raw(fromDER: Array(der.prefix(length)))
    }
}

extension P256.PublicKey {
    /// Whether `signature` (64-byte `r ‖ s`) is a valid ECDSA-SHA-256 signature of `message`.
    public func isValidSignature(_ signature: [UInt8], for message: [UInt8]) -> Bool {
        guard let der = try? ECDSASignature.der(fromRaw: signature), let digest = try? DigestContext() else {
            return false
        }
        defer { ERR_clear_error() }
        guard EVP_DigestVerifyInit(digest.pointer, nil, EVP_sha256(), nil, key.pointer) == 1 else { return false }
        return message.withUnsafeBufferPointer { m in
            EVP_DigestVerify(digest.pointer, der, der.count, m.baseAddress, m.count) == 1
        }
    }
}

/// Conversion between OpenSSL's DER `ECDSA-Sig-Value` and the JWS `r ‖ s` form.
enum ECDSASignature {
    static func raw(fromDER der: [UInt8]) throws -> [UInt8] {
        let signature = try der.withUnsafeBufferPointer { buffer -> OpaquePointer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return try OpenSSL.check(d2i_ECDSA_SIG(nil, &cursor, buffer.count), "d2i_ECDSA_SIG")
        }
        defer { ECDSA_SIG_free(signature) }
        var r: OpaquePointer? = nil
        var s: OpaquePointer? = nil
        ECDSA_SIG_get0(signature, &r, &s)
        var out = [UInt8](repeating: 0, count: P256.signatureSize)
        let half = Int32(P256.signatureSize / 2)
        try out.withUnsafeMutableBufferPointer { o in
            guard BN_bn2binpad(r, o.baseAddress, half) == half,
                BN_bn2binpad(s, o.baseAddress! + Int(half), half) == half
            else { throw OpenSSL.failure("BN_bn2binpad") }
        }
        return out
    }

    static func der(fromRaw raw: [UInt8]) throws -> [UInt8] {
        guard raw.count == P256.signatureSize else { throw CryptoError.invalidSignature }
        let half = P256.signatureSize / 2
        let signature = try OpenSSL.check(ECDSA_SIG_new(), "ECDSA_SIG_new")
        defer { ECDSA_SIG_free(signature) }
        let r = BN_bin2bn(raw, Int32(half), nil)
        let s = raw.withUnsafeBufferPointer { BN_bin2bn($0.baseAddress! + half, Int32(half), nil) }
        guard let r, let s, ECDSA_SIG_set0(signature, r, s) == 1 else {
            BN_free(r)
            BN_free(s)
            throw OpenSSL.failure("ECDSA_SIG_set0")
        }
        var out: UnsafeMutablePointer<UInt8>? = nil
        let length = i2d_ECDSA_SIG(signature, &out)
        guard length > 0, let out else { throw OpenSSL.failure("i2d_ECDSA_SIG") }
        defer { pushnode_openssl_free(out) }
        return Array(UnsafeBufferPointer(start: out, count: Int(length)))
    }
}
