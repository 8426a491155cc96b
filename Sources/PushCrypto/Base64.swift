import CSodium

/// Standard base64 (RFC 4648 §4, with padding) and base64url (§5, no padding).
///
/// Decoding is table-driven Swift: it runs on every signed request (signatures, payloads), where
/// libsodium's constant-time decoder cost about 8 ns a character (16 µs a Notify, `perf`, issue 25).
/// The encodings are public, so constant time buys nothing there. What it accepts is exactly what
/// `sodium_base642bin` accepts with no ignored characters and the whole input consumed
/// (`Base64DecoderTests` checks this against libsodium): the alphabet only, the exact padding the
/// length implies (standard) or none (url), no length ≡ 1 (mod 4), and zero bits after the last byte.
/// Encoding stays on libsodium (it is not on a hot path).
public enum Base64 {
    public static func encode<B: Collection>(_ bytes: B) -> String where B.Element == UInt8 {
        encode(Array(bytes), variant: sodium_base64_VARIANT_ORIGINAL)
    }

    /// Strict decoding: padding required, no whitespace.
    public static func decode(_ text: String) throws -> [UInt8] {
        try decode(text, alphabet: standardTable, padded: true)
    }

    public static func encodeURL<B: Collection>(_ bytes: B) -> String where B.Element == UInt8 {
        encode(Array(bytes), variant: sodium_base64_VARIANT_URLSAFE_NO_PADDING)
    }

    /// base64url without padding; trailing `=` padding is tolerated (some clients send it).
    public static func decodeURL(_ text: String) throws -> [UInt8] {
        var trimmed = Substring(text)
        while trimmed.hasSuffix("=") { trimmed = trimmed.dropLast() }
        return try decode(String(trimmed), alphabet: urlTable, padded: false)
    }

    private static func encode(_ bytes: [UInt8], variant: Int32) -> String {
        if bytes.isEmpty { return "" }
        let len = sodium_base64_encoded_len(bytes.count, variant)
        var out = [CChar](repeating: 0, count: len)
        _ = bytes.withUnsafeBufferPointer { b in
            sodium_bin2base64(&out, len, b.baseAddress, b.count, variant)
        }
        return String(decoding: out.prefix(len - 1).map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func decode(_ text: String, alphabet: [UInt8], padded: Bool) throws -> [UInt8] {
        var text = text
        let decoded = text.withUTF8 { input in
            alphabet.withUnsafeBufferPointer { decode(input, table: $0, padded: padded) }
        }
        guard let decoded else { throw CryptoError.invalidEncoding("base64") }
        return decoded
    }

    /// nil when `input` is not canonical base64 of the table's alphabet (see the type's comment).
    private static func decode(_ input: UnsafeBufferPointer<UInt8>, table: UnsafeBufferPointer<UInt8>,
                               padded: Bool) -> [UInt8]? {
        var length = input.count
        if length == 0 { return [] }
        if padded {
            guard length % 4 == 0 else { return nil }
            var padding = 0
            while padding < 2, input[length - 1] == UInt8(ascii: "=") { length -= 1; padding += 1 }
            guard padding == (4 - length % 4) % 4 else { return nil }
        }
        let tail = length % 4
        guard tail != 1 else { return nil }
        let groups = length / 4
        let count = groups * 3 + (tail == 0 ? 0 : tail - 1)
        var valid = true
        let out = [UInt8](unsafeUninitializedCapacity: count) { out, initialized in
            var invalid: UInt8 = 0
            var i = 0, o = 0
            for _ in 0..<groups {
                let a = table[Int(input[i])], b = table[Int(input[i + 1])]
                let c = table[Int(input[i + 2])], d = table[Int(input[i + 3])]
                invalid |= a | b | c | d
                let v = UInt32(a) << 18 | UInt32(b) << 12 | UInt32(c) << 6 | UInt32(d)
                out[o] = UInt8(truncatingIfNeeded: v >> 16)
                out[o + 1] = UInt8(truncatingIfNeeded: v >> 8)
                out[o + 2] = UInt8(truncatingIfNeeded: v)
                i += 4
                o += 3
            }
            if tail >= 2 {
                let a = table[Int(input[i])], b = table[Int(input[i + 1])]
                invalid |= a | b
                out[o] = a << 2 | (b & 0x3f) >> 4
                if tail == 3 {
                    let c = table[Int(input[i + 2])]
                    invalid |= c
                    out[o + 1] = (b & 0x0f) << 4 | (c & 0x3f) >> 2
                    invalid |= c & 0x03 == 0 ? 0 : 0x80           // bits after the last byte
                } else {
                    invalid |= b & 0x0f == 0 ? 0 : 0x80
                }
            }
            valid = invalid & 0x80 == 0
            initialized = count
        }
        return valid ? out : nil
    }

    /// 256 entries: the character's 6-bit value, or 0x80 (invalid; any set high bit marks it).
    private static func table(_ alphabet: String) -> [UInt8] {
        var table = [UInt8](repeating: 0x80, count: 256)
        for (value, character) in alphabet.utf8.enumerated() { table[Int(character)] = UInt8(value) }
        return table
    }

    private static let standardTable = table("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/")
    private static let urlTable = table("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_")
}
