import COpenSSL
import CSodium

/// Shared plumbing for the OpenSSL-backed types: one return-code check, the C names
/// OpenSSL keeps pointers to, and the owner classes of EVP handles.
enum OpenSSL {
    /// Turns an OpenSSL status (1 = success) into `CryptoError.library`. The thread's
    /// error queue is cleared on failure so one failure never shows up in a later call.
    @inline(__always)
    static func check(_ rc: Int32, _ operation: StaticString) throws {
        guard rc == 1 else { throw failure(operation) }
    }

    /// Unwraps a pointer an OpenSSL constructor returned, or throws.
    @inline(__always)
    static func check<T>(_ pointer: T?, _ operation: StaticString) throws -> T {
        guard let pointer else { throw failure(operation) }
        return pointer
    }

    static func failure(_ operation: StaticString) -> CryptoError {
        ERR_clear_error()
        return CryptoError.library("\(operation)")
    }

    /// A NUL-terminated C string that lives as long as the program. `OSSL_PARAM`
    /// keeps the pointers it is given, so names and fixed values must come from here,
    /// never from temporary Swift strings.
    @inline(__always)
    static func cString(_ literal: StaticString) -> UnsafeMutablePointer<CChar> {
        precondition(literal.hasPointerRepresentation && literal.utf8CodeUnitCount > 0)
        precondition(literal.utf8Start[literal.utf8CodeUnitCount - 1] == 0, "C names end in \\0")
        return UnsafeMutablePointer(mutating: UnsafeRawPointer(literal.utf8Start).assumingMemoryBound(to: CChar.self))
    }

    /// `OSSL_PARAM` key names and the P-256 group name, NUL-terminated.
    enum Name {
        static let group: StaticString = "group\0"
        static let publicKey: StaticString = "pub\0"
        static let privateKey: StaticString = "priv\0"
        static let pointFormat: StaticString = "point-format\0"
        static let uncompressed: StaticString = "uncompressed\0"
        static let p256: StaticString = "prime256v1\0"
    }
}

/// Owns one `EVP_PKEY`; freeing it also clears the private scalar (OpenSSL uses
/// `BN_clear_free` for EC and RSA private keys).
final class EVPKey: @unchecked Sendable {
    // An EVP_PKEY is safe to use from several threads at once for derive, sign and verify.
    let pointer: OpaquePointer

    init(taking pointer: OpaquePointer) { self.pointer = pointer }

    deinit { EVP_PKEY_free(pointer) }
}

/// Owns one `EVP_PKEY_CTX`.
final class PKeyContext {
    let pointer: OpaquePointer

    /// A context for operations with `key` (derive, sign).
    init(key: EVPKey) throws {
        pointer = try OpenSSL.check(EVP_PKEY_CTX_new_from_pkey(nil, key.pointer, nil), "EVP_PKEY_CTX_new_from_pkey")
    }

    /// A context for an algorithm by name (`"EC"`), for key generation or import.
    init(algorithm: StaticString) throws {
        pointer = try OpenSSL.check(
            EVP_PKEY_CTX_new_from_name(nil, OpenSSL.cString(algorithm), nil), "EVP_PKEY_CTX_new_from_name")
    }

    deinit { EVP_PKEY_CTX_free(pointer) }
}

/// Owns one `EVP_MD_CTX`.
final class DigestContext {
    let pointer: OpaquePointer

    init() throws { pointer = try OpenSSL.check(EVP_MD_CTX_new(), "EVP_MD_CTX_new") }

    deinit { EVP_MD_CTX_free(pointer) }
}

/// Owns one memory `BIO`.
final class MemoryBIO {
    let pointer: OpaquePointer

    /// An empty BIO to write into.
    init() throws { pointer = try OpenSSL.check(BIO_new(BIO_s_mem()), "BIO_new") }

    /// A read-only BIO over a private copy of `bytes` (wiped when the BIO goes away).
    init(reading bytes: [UInt8]) throws {
        let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(bytes.count, 1), alignment: 1)
        copy.copyBytes(from: bytes)
        guard let bio = BIO_new_mem_buf(copy.baseAddress, Int32(bytes.count)) else {
            copy.deallocate()
            throw OpenSSL.failure("BIO_new_mem_buf")
        }
        pointer = bio
        input = copy
    }

    private var input: UnsafeMutableRawBufferPointer?

    /// Everything written so far.
    var contents: [UInt8] {
        var data: UnsafeMutablePointer<CChar>? = nil
        let count = pushnode_bio_get_mem_data(pointer, &data)
        guard let data, count > 0 else { return [] }
        return Array(UnsafeRawBufferPointer(start: data, count: Int(count)))
    }

    deinit {
        BIO_free(pointer)
        if let input {
            sodium_memzero(input.baseAddress, input.count)
            input.deallocate()
        }
    }
}
