import COpenSSL
import CSodium

/// SHA-256: OpenSSL's, which uses the CPU's SHA extensions where there are some (0.9 µs for a
/// 1 KB request body here, against 5 µs for libsodium's portable code: the content digest of every
/// signed request, issue 25); libsodium's if OpenSSL fails (it only can when out of memory).
public enum SHA256 {
    public static func hash<B: Collection>(_ data: B) -> [UInt8] where B.Element == UInt8 {
        data.withContiguousStorageIfAvailable { digest(UnsafeRawBufferPointer($0)) }
            ?? Array(data).withUnsafeBytes { digest($0) }
    }

    /// Lowercase hex of the SHA-256 of `data`.
    public static func hex<B: Collection>(_ data: B) -> String where B.Element == UInt8 { Hex.encode(hash(data)) }

    private static func digest(_ bytes: UnsafeRawBufferPointer) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { out, count in
            var size: UInt32 = 0
            if let md = algorithm.md, EVP_Digest(bytes.baseAddress, bytes.count, out.baseAddress, &size, md, nil) == 1,
               size == 32 {
                count = 32
                return
            }
            Sodium.ensure()
            crypto_hash_sha256(out.baseAddress!, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self),
                               UInt64(bytes.count))
            count = 32
        }
    }

    /// Fetched once: a fetched `EVP_MD` is immutable and shared by every thread.
    private static let algorithm = FetchedDigest(name: "SHA256")
}

/// An `EVP_MD` fetched from OpenSSL's default provider, kept for the life of the process.
private final class FetchedDigest: @unchecked Sendable {
    let md: OpaquePointer?

    init(name: String) { md = EVP_MD_fetch(nil, name, nil) }
}

public enum HMACSHA512 {
    public static func authenticate(key: [UInt8], data: [UInt8]) -> [UInt8] {
        SodiumHMAC.authenticate(key: key, data: data, state: crypto_auth_hmacsha512_state(), size: 64,
                                start: crypto_auth_hmacsha512_init, update: crypto_auth_hmacsha512_update,
                                finish: crypto_auth_hmacsha512_final)
    }
}

public enum HMACSHA256 {
    public static func authenticate(key: [UInt8], data: [UInt8]) -> [UInt8] {
        SodiumHMAC.authenticate(key: key, data: data, state: crypto_auth_hmacsha256_state(), size: 32,
                                start: crypto_auth_hmacsha256_init, update: crypto_auth_hmacsha256_update,
                                finish: crypto_auth_hmacsha256_final)
    }
}

/// libsodium's HMAC calls, the same for each hash: `start` with the key, `update` with the data,
/// `finish` into `size` bytes.
enum SodiumHMAC {
    static func authenticate<State>(
        key: [UInt8], data: [UInt8], state: State, size: Int,
        start: (UnsafeMutablePointer<State>, UnsafePointer<UInt8>, Int) -> Int32,
        update: (UnsafeMutablePointer<State>, UnsafePointer<UInt8>?, UInt64) -> Int32,
        finish: (UnsafeMutablePointer<State>, UnsafeMutablePointer<UInt8>) -> Int32
    ) -> [UInt8] {
        Sodium.ensure()
        var state = state
        var out = [UInt8](repeating: 0, count: size)
        _ = start(&state, key, key.count)
        data.withUnsafeBufferPointer { _ = update(&state, $0.baseAddress, UInt64($0.count)) }
        _ = finish(&state, &out)
        return out
    }
}
