/// Base58 with the bitcoin alphabet, as any-sync uses for account ids and space keys.
public enum Base58 {
    static let alphabet: [UInt8] = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)
    static let index: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = Int8(i) }
        return table
    }()

    public static func encode(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        var digits = [UInt8]()  // base58 digits, little-endian
        digits.reserveCapacity(bytes.count * 138 / 100 + 1)
        for byte in bytes.dropFirst(zeros) {
            var carry = Int(byte)
            for i in digits.indices {
                carry += Int(digits[i]) << 8
                digits[i] = UInt8(carry % 58)
                carry /= 58
            }
            while carry > 0 {
                digits.append(UInt8(carry % 58))
                carry /= 58
            }
        }
        var out = [UInt8](repeating: alphabet[0], count: zeros)
        out.append(contentsOf: digits.reversed().map { alphabet[Int($0)] })
        return String(decoding: out, as: UTF8.self)
    }

    public static func decode(_ text: String) throws -> [UInt8] {
        let chars = Array(text.utf8)
        let zeros = chars.prefix { $0 == alphabet[0] }.count
        var bytes = [UInt8]()  // little-endian
        for c in chars.dropFirst(zeros) {
            guard c < 128, index[Int(c)] >= 0 else { throw CryptoError.invalidEncoding("base58: invalid character") }
            var carry = Int(index[Int(c)])
            for i in bytes.indices {
                carry += Int(bytes[i]) * 58
                bytes[i] = UInt8(carry & 0xff)
                carry >>= 8
            }
            while carry > 0 {
                bytes.append(UInt8(carry & 0xff))
                carry >>= 8
            }
        }
        return [UInt8](repeating: 0, count: zeros) + bytes.reversed()
    }
}
