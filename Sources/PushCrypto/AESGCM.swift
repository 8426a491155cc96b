import COpenSSL

/// AES-GCM (128- or 256-bit keys by key length) with a 12-byte nonce and a 16-byte tag,
/// on OpenSSL's EVP interface. Used by payload sealing (AES-256) and RFC 8188 records (AES-128).
///
/// The ciphers are fetched once and the `EVP_CIPHER_CTX` is reused per thread
/// (`CipherWorkspace`): making a context and fetching the cipher per call cost about as
/// much as sealing 2 KB.
public enum AESGCM {
    public static let nonceSize = 12
    public static let tagSize = 16

    /// Encrypts `plaintext`; returns `ciphertext ‖ tag`.
    public static func seal(_ plaintext: [UInt8], key: [UInt8], nonce: [UInt8], aad: [UInt8] = []) throws -> [UInt8] {
        let workspace = try CipherWorkspace.current
        let cipher = try workspace.cipher(forKeySize: key.count)
        guard nonce.count == nonceSize else { throw CryptoError.invalidKeyLength(expected: nonceSize, got: nonce.count) }
        let ctx = workspace.context
        try ctx.check(EVP_EncryptInit_ex2(ctx.ctx, cipher, key, nonce, nil))
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
        let workspace = try CipherWorkspace.current
        let cipher = try workspace.cipher(forKeySize: key.count)
        guard nonce.count == nonceSize else { throw CryptoError.invalidKeyLength(expected: nonceSize, got: nonce.count) }
        guard sealed.count >= tagSize else { throw CryptoError.authenticationFailed }
        let bodyCount = sealed.count - tagSize
        let ctx = workspace.context
        try ctx.check(EVP_DecryptInit_ex2(ctx.ctx, cipher, key, nonce, nil))
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
                    ERR_clear_error()
                    throw CryptoError.authenticationFailed
                }
                written += Int(len)
            }
        }
        return Array(out.prefix(written))
    }
}

/// The fetched AES-GCM ciphers and a reusable cipher context, one per thread.
final class CipherWorkspace {
    let context: CipherContext
    private let aes128: OpaquePointer
    private let aes256: OpaquePointer

    private init() throws {
        context = try CipherContext()
        aes128 = try OpenSSL.check(EVP_CIPHER_fetch(nil, OpenSSL.cString("AES-128-GCM\0"), nil), "EVP_CIPHER_fetch")
        aes256 = try OpenSSL.check(EVP_CIPHER_fetch(nil, OpenSSL.cString("AES-256-GCM\0"), nil), "EVP_CIPHER_fetch")
    }

    deinit {
        EVP_CIPHER_free(aes128)
        EVP_CIPHER_free(aes256)
    }

    private static let perThread = ThreadLocal { try CipherWorkspace() }
    static var current: CipherWorkspace { get throws { try perThread.value } }

    func cipher(forKeySize size: Int) throws -> OpaquePointer {
        switch size {
        case 16: return aes128
        case 32: return aes256
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
        guard rc == 1 else {
            ERR_clear_error()
            throw CryptoError.library("EVP cipher operation failed")
        }
    }

    deinit { EVP_CIPHER_CTX_free(ctx) }
}
