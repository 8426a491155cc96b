import Testing
@testable import PushCrypto

/// The limb-wise `Base58` against the textbook byte-at-a-time conversion (the implementation it
/// replaced), on random inputs of the lengths the node sees and around them.
@Suite struct Base58Tests {
    private static func textbookEncode(_ bytes: [UInt8]) -> String {
        let zeros = bytes.prefix { $0 == 0 }.count
        var digits: [UInt8] = []
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
        return String(repeating: "1", count: zeros) + String(decoding: digits.reversed().map { Base58.alphabet[Int($0)] }, as: UTF8.self)
    }

    private static func textbookDecode(_ text: String) -> [UInt8]? {
        let chars = Array(text.utf8)
        let zeros = chars.prefix { $0 == UInt8(ascii: "1") }.count
        var bytes: [UInt8] = []
        for c in chars.dropFirst(zeros) {
            guard let digit = Base58.alphabet.firstIndex(of: c) else { return nil }
            var carry = digit
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

    @Test func matchesTheTextbookConversion() throws {
        var generator = SystemRandomNumberGenerator()
        for length in Array(0...40) + [64, 65, 100] {
            for _ in 0..<40 {
                var bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                // Leading zeros (the `1`s) and high bytes in some of them.
                if length > 2, Bool.random(using: &generator) { bytes[0] = 0; bytes[1] = Bool.random(using: &generator) ? 0 : 255 }
                let text = Base58.encode(bytes)
                #expect(text == Self.textbookEncode(bytes), "\(bytes)")
                #expect(try Base58.decode(text) == bytes)
            }
        }
        for bytes: [UInt8] in [[], [0], [0, 0, 0], [255], [0, 255, 255, 255, 255], [UInt8](repeating: 255, count: 35)] {
            #expect(Base58.encode(bytes) == Self.textbookEncode(bytes))
        }
    }

    /// Every text decode accepts is the encoding of what it decodes to: one spelling per byte string.
    @Test func everyAcceptedTextIsTheEncodingOfItsBytes() throws {
        var generator = SystemRandomNumberGenerator()
        for length in 0...60 {
            for _ in 0..<20 {
                let text = String(decoding: (0..<length).map { _ in
                    Base58.alphabet[Int.random(in: 0..<(Bool.random(using: &generator) ? 3 : 58), using: &generator)]
                }, as: UTF8.self)
                let bytes = try Base58.decode(text)
                #expect(bytes == Self.textbookDecode(text), "\(text)")
                #expect(Base58.encode(bytes) == text)
            }
        }
    }

    @Test(arguments: ["0", "O", "I", "l", "abc0", "A+", "é", "1 1", "\u{0}"])
    func rejectsCharactersOutsideTheAlphabet(text: String) {
        #expect(throws: CryptoError.invalidEncoding("base58: invalid character")) { try Base58.decode(text) }
    }
}
