import COpenSSL

/// AES-GCM (128- or 256-bit keys by key length) with a 12-byte nonce and a 16-byte tag,
/// on OpenSSL's EVP interface. Used by payload sealing (AES-256) and RFC 8188 records (AES-128).
public enum AESGCM {
    public static let nonceSize = 12
    public static let tagSize = 16

    /// Encrypts `plaintext`; returns `ciphertext ‖ tag`.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8] = []) throws -> [UInt8] {
        let cipher = try Self.cipher(forKeySize: key.count)
        guard nonce.count == nonceSize else { throw CryptoError.invalidKeyLength(expected: nonceSize, got: nonce.count) }
        let ctx = try CipherContext()
        try ctx.check(EVP_EncryptInit_ex(ctx.ctx, cipher, nil, key, nonce))
        var out = [UInt8](repeating: 0, count: plaintext.count + tagSize)
        var len: Int32 = 0
        if !aad.isEmpty {
            try ctx.check(EVP_EncryptUpdate(ctx.ctx, nil, &len, aad, Int32(aad.count)))
        }
        var written = 0
        if !plaintext.isEmpty {
            try out.withUnsafeMutableBufferPointer { o in
                try ctx.check(EVP_EncryptUpdate(ctx.ctx, o.baseAddress, &len, plaintext, Int32(plaintext.count)))
            }
            written = Int(len)
        }
        try out.withUnsafeMutableBufferPointer { o in
            try ctx.check(EVP_EncryptFinal_ex(ctx.ctx, o.baseAddress! + written, &len))
            written += Int(len)
            try ctx.check(EVP_CIPHER_CTX_ctrl(ctx.ctx, EVP_CTRL_GCM_GET_TAG, Int32(tagSize), o.baseAddress! + written))
        }
        return out
    }

    /// Decrypts `ciphertext ‖ tag`; throws `CryptoError.authenticationFailed` when the tag does not match.
    public static func open(_ sealed: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8] = []) throws -> [UInt8] {
        let cipher = try Self.cipher(forKeySize: key.count)
        guard nonce.count == nonceSize else { throw CryptoError.invalidKeyLength(expected: nonceSize, got: nonce.count) }
        guard sealed.count >= tagSize else { throw CryptoError.authenticationFailed }
        let bodyCount = sealed.count - tagSize
        let ctx = try CipherContext()
        try ctx.check(EVP_DecryptInit_ex(ctx.ctx, cipher, nil, key, nonce))
        var len: Int32 = 0
        if !aad.isEmpty {
            try ctx.check(EVP_DecryptUpdate(ctx.ctx, nil, &len, aad, Int32(aad.count)))
        }
        var out = [UInt8](repeating: 0, count: bodyCount + 16)
        var written = 0
        try sealed.withUnsafeBufferPointer { s in
            try out.withUnsafeMutableBufferPointer { o in
                if bodyCount > 0 {
                    try ctx.check(EVP_DecryptUpdate(ctx.ctx, o.baseAddress, &len, s.baseAddress, Int32(bodyCount)))
                    written = Int(len)
                }
                var tag = Array(s[bodyCount...])
                try ctx.check(EVP_CIPHER_CTX_ctrl(ctx.ctx, EVP_CTRL_GCM_SET_TAG, Int32(tagSize), &tag))
                guard EVP_DecryptFinal_ex(ctx.ctx, o.baseAddress! + written, &len) == 1 else {
                    throw CryptoError.authenticationFailed
                }
                written += Int(len)
            }
        }
        return Array(out.prefix(written))
    }

    private static func cipher(forKeySize size: Int) throws -> OpaquePointer? {
        switch size {
        case 16: return EVP_aes_128_gcm()
        case 32: return EVP_aes_256_gcm()
        default: throw CryptoError.invalidKeyLength(expected: 32, got: size)
        }
    }
}

/// Owns one `EVP_CIPHER_CTX`.
final class CipherContext {
    let ctx: OpaquePointer?

    init() throws {
        guard let c = EVP_CIPHER_CTX_new() else { throw CryptoError.library("EVP_CIPHER_CTX_new") }
        ctx = c
    }

    func check(_ rc: Int32) throws {
        guard rc == 1 else { throw CryptoError.library("EVP cipher operation failed") }
    }

    deinit { EVP_CIPHER_CTX_free(ctx) }
}
