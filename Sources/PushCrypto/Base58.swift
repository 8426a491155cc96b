/// Base58 with the bitcoin alphabet, as any-sync uses for account ids and space keys.
///
/// Each leading zero byte is one leading `1`; the rest is the big-endian number in base 58 without
/// leading zero digits. So every text `decode` accepts is exactly `encode` of what it decodes to
/// (one spelling per byte string; the `base58` fuzz target checks it), and a decoded key can keep
/// the text it came in as its string form.
///
/// Both directions work on 32-bit limbs in a stack buffer, five base-58 digits (58⁵ < 2³²) or
/// three bytes per step: they run on every request (the `keyid` of a signature, the space keys of
/// its topics), where the byte-at-a-time schoolbook loop cost microseconds per key.
public enum Base58 {
    static let alphabet: [UInt8] = Array("123456789ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz".utf8)
    static let index: [Int8] = {
        var table = [Int8](repeating: -1, count: 128)
        for (i, c) in alphabet.enumerated() { table[Int(c)] = Int8(i) }
        return table
    }()

    /// 58⁵, the base of the limbs `encode` works in.
    private static let limbBase: UInt64 = 656_356_768

    public static func encode(_ bytes: [UInt8]) -> String {
        let alphabet = self.alphabet
        let zeros = bytes.prefix { $0 == 0 }.count
        let significant = bytes.count - zeros
        // log₂(256) / log₂(58⁵) = 8 / 29.29 limbs per byte.
        let capacity = significant * 8 / 29 + 2
        return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: capacity) { limbs in
            // Little-endian limbs in base 58⁵: the number times 2^(8·n) plus the next n bytes, n ≤ 3.
            var used = 0
            var position = zeros
            while position < bytes.count {
                let take = min(3, bytes.count - position)
                var chunk: UInt64 = 0
                for offset in 0..<take { chunk = chunk << 8 | UInt64(bytes[position + offset]) }
                position += take
                var carry = chunk
                for j in 0..<used {
                    let value = UInt64(limbs[j]) << (8 * take) + carry
                    limbs[j] = UInt32(value % limbBase)
                    carry = value / limbBase
                }
                while carry > 0 {
                    limbs[used] = UInt32(carry % limbBase)
                    used += 1
                    carry /= limbBase
                }
            }
            var out = [UInt8](repeating: alphabet[0], count: zeros)
            out.reserveCapacity(zeros + used * 5)
            var digits: (UInt8, UInt8, UInt8, UInt8, UInt8) = (0, 0, 0, 0, 0)
            for j in stride(from: used - 1, through: 0, by: -1) {
                var limb = limbs[j]
                withUnsafeMutableBytes(of: &digits) { five in
                    for k in stride(from: 4, through: 0, by: -1) {
                        five[k] = UInt8(limb % 58)
                        limb /= 58
                    }
                    // The top limb without its leading zero digits; every other limb has all five.
                    var k = 0
                    if j == used - 1 { while five[k] == 0 { k += 1 } }
                    while k < 5 {
                        out.append(alphabet[Int(five[k])])
                        k += 1
                    }
                }
            }
            return String(decoding: out, as: UTF8.self)
        }
    }

    public static func decode(_ text: String) throws -> [UInt8] {
        var text = text
        let index = self.index
        return try text.withUTF8 { chars throws(CryptoError) -> [UInt8] in
            let zeros = chars.prefix { $0 == UInt8(ascii: "1") }.count
            // log₂(58) / 32 = 0.183 limbs per digit.
            let capacity = (chars.count - zeros) * 183 / 1000 + 2
            return try withUnsafeTemporaryAllocation(of: UInt32.self, capacity: capacity) { limbs throws(CryptoError) -> [UInt8] in
                // Little-endian limbs in base 2³²: the number times 58^n plus the next n digits, n ≤ 5.
                var used = 0
                var position = zeros
                while position < chars.count {
                    var chunk: UInt64 = 0
                    var scale: UInt64 = 1
                    while scale < limbBase, position < chars.count {
                        let c = chars[position]
                        guard c < 128, index[Int(c)] >= 0 else { throw CryptoError.invalidEncoding("base58: invalid character") }
                        chunk = chunk * 58 + UInt64(index[Int(c)])
                        scale *= 58
                        position += 1
                    }
                    var carry = chunk
                    for j in 0..<used {
                        let value = UInt64(limbs[j]) * scale + carry
                        limbs[j] = UInt32(truncatingIfNeeded: value)
                        carry = value >> 32
                    }
                    while carry > 0 {
                        limbs[used] = UInt32(truncatingIfNeeded: carry)
                        used += 1
                        carry >>= 32
                    }
                }
                var out = [UInt8](repeating: 0, count: zeros)
                out.reserveCapacity(zeros + used * 4)
                for j in stride(from: used - 1, through: 0, by: -1) {
                    let limb = limbs[j]
                    for shift in stride(from: 24, through: 0, by: -8) {
                        let byte = UInt8(truncatingIfNeeded: limb >> UInt32(shift))
                        // The number has no leading zero bytes (its top limb is non-zero).
                        if j == used - 1 && byte == 0 && out.count == zeros { continue }
                        out.append(byte)
                    }
                }
                return out
            }
        }
    }
}
