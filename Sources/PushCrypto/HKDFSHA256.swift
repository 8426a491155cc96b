/// HKDF with HMAC-SHA-256.
/// - SeeAlso: RFC 5869.
public enum HKDFSHA256 {
    public static let hashSize = 32

    /// `PRK = HMAC-SHA-256(salt, IKM)`; an empty salt means 32 zero bytes.
    public static func extract(salt: [UInt8], ikm: [UInt8]) throws -> [UInt8] {
        try SHA256HMAC.authenticate(key: salt.isEmpty ? [UInt8](repeating: 0, count: hashSize) : salt, ikm)
    }

    /// `OKM = T(1) ‖ T(2) ‖ …` truncated to `length` (at most 255 × 32 bytes), where
    /// `T(i) = HMAC-SHA-256(PRK, T(i-1) ‖ info ‖ i)`.
    public static func expand(prk: [UInt8], info: [UInt8], length: Int) throws -> [UInt8] {
        guard length >= 0, length <= 255 * hashSize else {
            throw CryptoError.invalidKeyLength(expected: 255 * hashSize, got: length)
        }
        var output = [UInt8]()
        output.reserveCapacity(length + hashSize)
        var block = [UInt8]()
        var counter: UInt8 = 1
        while output.count < length {
            block = try SHA256HMAC.authenticate(key: prk, block, info, [counter])
            output += block
            counter &+= 1
        }
        return Array(output.prefix(length))
    }

    /// Extract then expand.
    public static func deriveKey(ikm: [UInt8], salt: [UInt8], info: [UInt8], length: Int) throws -> [UInt8] {
        var prk = try extract(salt: salt, ikm: ikm)
        defer { ConstantTime.wipe(&prk) }
        return try expand(prk: prk, info: info, length: length)
    }
}
