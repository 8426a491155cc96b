import CSodium

/// SHA-256 and HMAC-SHA-512 (libsodium).
public enum SHA256 {
    public static func hash<B: Collection>(_ data: B) -> [UInt8] where B.Element == UInt8 {
        Sodium.ensure()
        var out = [UInt8](repeating: 0, count: 32)
        let input = Array(data)
        _ = input.withUnsafeBufferPointer { crypto_hash_sha256(&out, $0.baseAddress, UInt64($0.count)) }
        return out
    }

    /// Lowercase hex of the SHA-256 of `data`.
    public static func hex<B: Collection>(_ data: B) -> String where B.Element == UInt8 { Hex.encode(hash(data)) }
}

public enum HMACSHA512 {
    public static func authenticate(key: [UInt8], data: [UInt8]) -> [UInt8] {
        Sodium.ensure()
        var state = crypto_auth_hmacsha512_state()
        var out = [UInt8](repeating: 0, count: 64)
        crypto_auth_hmacsha512_init(&state, key, key.count)
        data.withUnsafeBufferPointer { _ = crypto_auth_hmacsha512_update(&state, $0.baseAddress, UInt64($0.count)) }
        crypto_auth_hmacsha512_final(&state, &out)
        return out
    }
}

public enum HMACSHA256 {
    public static func authenticate(key: [UInt8], data: [UInt8]) -> [UInt8] {
        Sodium.ensure()
        var state = crypto_auth_hmacsha256_state()
        var out = [UInt8](repeating: 0, count: 32)
        crypto_auth_hmacsha256_init(&state, key, key.count)
        data.withUnsafeBufferPointer { _ = crypto_auth_hmacsha256_update(&state, $0.baseAddress, UInt64($0.count)) }
        crypto_auth_hmacsha256_final(&state, &out)
        return out
    }
}
