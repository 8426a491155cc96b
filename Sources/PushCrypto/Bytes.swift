import CSodium

/// Encodings of raw bytes used on the wire: hex, standard base64 and base64url.
public enum Hex {
    /// Lowercase hex.
    public static func encode<B: Sequence>(_ bytes: B) -> String where B.Element == UInt8 {
        let digits: [UInt8] = Array("0123456789abcdef".utf8)
        var out = [UInt8]()
        out.reserveCapacity(64)
        for b in bytes {
            out.append(digits[Int(b >> 4)])
            out.append(digits[Int(b & 0x0f)])
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Decodes hex (either case). Throws on odd length or a non-hex digit.
    public static func decode(_ text: String) throws -> [UInt8] {
        let chars = Array(text.utf8)
        guard chars.count % 2 == 0 else { throw CryptoError.invalidEncoding("hex: odd length") }
        var out = [UInt8]()
        out.reserveCapacity(chars.count / 2)
        var i = 0
        while i < chars.count {
            guard let hi = nibble(chars[i]), let lo = nibble(chars[i + 1]) else {
                throw CryptoError.invalidEncoding("hex: invalid digit")
            }
            out.append(hi << 4 | lo)
            i += 2
        }
        return out
    }

    private static func nibble(_ c: UInt8) -> UInt8? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return c - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}

/// Comparisons and wiping for secret material.
public enum ConstantTime {
    /// Compares two byte strings in time that depends only on their lengths.
    public static func equals(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        guard a.count == b.count else { return false }
        if a.isEmpty { return true }
        return a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in sodium_memcmp(pa.baseAddress, pb.baseAddress, a.count) == 0 }
        }
    }

    /// Overwrites the bytes with zeros in a way the optimizer cannot drop.
    public static func wipe(_ bytes: inout [UInt8]) {
        let n = bytes.count
        bytes.withUnsafeMutableBytes { if let base = $0.baseAddress { sodium_memzero(base, n) } }
    }
}

/// Cryptographically secure random bytes (libsodium).
public enum SecureRandom {
    public static func bytes(_ count: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: count)
        Sodium.ensure()
        if count > 0 { out.withUnsafeMutableBytes { randombytes_buf($0.baseAddress!, count) } }
        return out
    }
}

/// One-time initialisation of libsodium; every entry point that uses it calls `ensure()`.
enum Sodium {
    static let ready: Bool = sodium_init() >= 0
    @inline(__always) static func ensure() { precondition(ready, "libsodium failed to initialise") }
}
