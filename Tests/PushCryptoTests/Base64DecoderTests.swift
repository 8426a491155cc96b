import CSodium
import Testing
@testable import PushCrypto

/// The table-driven `Base64` decoders against libsodium's `sodium_base642bin` (the decoder they
/// replaced), which must accept exactly the same ASCII texts and yield the same bytes: encodings of
/// random bytes, and texts that are almost base64 (stray padding, characters of the other alphabet,
/// non-zero trailing bits, lengths ≡ 1 mod 4, whitespace, NUL). Non-ASCII is where they part:
/// libsodium reads the text as signed `char`, and its constant-time range checks then take some
/// bytes over 0x7f for alphabet characters (it decodes "\u{FFFD}w" as ff ff f0); the node refuses
/// every byte outside the alphabet, as RFC 4648 §3.3 asks.
@Suite struct Base64DecoderTests {
    /// libsodium's answer, with the node's former rule that the whole text must be consumed.
    private static func sodiumDecode(_ text: String, variant: Int32) -> [UInt8]? {
        let input = Array(text.utf8)
        if input.isEmpty { return [] }
        var out = [UInt8](repeating: 0, count: input.count * 3 / 4 + 3)
        var length = 0
        var end: UnsafePointer<CChar>? = nil
        let complete = input.withUnsafeBufferPointer { raw in
            raw.withMemoryRebound(to: CChar.self) { cin -> Bool in
                guard sodium_base642bin(&out, out.count, cin.baseAddress, cin.count, nil, &length, &end, variant) == 0 else {
                    return false
                }
                return (end.map { $0 - cin.baseAddress! } ?? cin.count) == cin.count
            }
        }
        return complete ? Array(out.prefix(length)) : nil
    }

    private static func oursStandard(_ text: String) -> [UInt8]? { try? Base64.decode(text) }

    private static func oursURL(_ text: String) -> [UInt8]? { try? Base64.decodeURL(text) }

    /// `decodeURL` drops trailing `=` before decoding; so does this reference.
    private static func sodiumURL(_ text: String) -> [UInt8]? {
        var trimmed = Substring(text)
        while trimmed.hasSuffix("=") { trimmed = trimmed.dropLast() }
        return sodiumDecode(String(trimmed), variant: sodium_base64_VARIANT_URLSAFE_NO_PADDING)
    }

    @Test func encodingsOfRandomBytesDecodeAsLibsodiumDecodesThem() {
        var generator = SystemRandomNumberGenerator()
        for length in 0...200 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let standard = Base64.encode(bytes), url = Base64.encodeURL(bytes)
            #expect(Self.oursStandard(standard) == bytes)
            #expect(Self.oursURL(url) == bytes)
            #expect(Self.oursURL(url + "=") == bytes)
            #expect(Self.sodiumDecode(standard, variant: sodium_base64_VARIANT_ORIGINAL) == bytes)
        }
    }

    @Test func textsThatAreAlmostBase64AreAcceptedOrRefusedAsLibsodiumDoes() {
        let characters = Array("AQgwxz09+/-_=".utf8) + [UInt8(ascii: " "), UInt8(ascii: "\n"), 0xc3, 0xa9, 0x00]
        var generator = SystemRandomNumberGenerator()
        var accepted = 0, refused = 0
        for _ in 0..<40_000 {
            let length = Int.random(in: 0...13, using: &generator)
            let bytes = (0..<length).map { _ in characters.randomElement(using: &generator)! }
            let text = String(decoding: bytes, as: UTF8.self)
            guard text.utf8.allSatisfy({ $0 < 0x80 }) else {
                #expect(Self.oursStandard(text) == nil && Self.oursURL(text) == nil, "\(Array(text.utf8))")
                continue
            }
            let expected = Self.sodiumDecode(text, variant: sodium_base64_VARIANT_ORIGINAL)
            #expect(Self.oursStandard(text) == expected, "standard: \(Array(text.utf8))")
            #expect(Self.oursURL(text) == Self.sodiumURL(text), "url: \(Array(text.utf8))")
            if expected == nil { refused += 1 } else { accepted += 1 }
        }
        // Both kinds of answer were exercised, not only refusals.
        #expect(accepted > 500 && refused > 500)
    }

    @Test func theEdgesOfPaddingAndTrailingBits() {
        let cases = ["QQ==", "QQ=", "QQ", "QR==", "QUI=", "QUJ=", "QUI", "Q===", "====", "QUJD", "QUJD====", "QUJDQQ==",
                     "QUJD\n", " QUJD", "QQ==QQ==", "A", "AA", "AAA", "AAAA", "_-8", "+/8="]
        for text in cases {
            #expect(Self.oursStandard(text) == Self.sodiumDecode(text, variant: sodium_base64_VARIANT_ORIGINAL), "\(text)")
            #expect(Self.oursURL(text) == Self.sodiumURL(text), "\(text)")
        }
        #expect(Self.oursStandard("QQ==") == [0x41])
        #expect(Self.oursStandard("QR==") == nil)          // non-zero bits after the last byte
        #expect(Self.oursURL("_-8") == [0xff, 0xef])
        #expect(Self.sodiumDecode("\u{FFFD}w", variant: sodium_base64_VARIANT_ORIGINAL) == [0xff, 0xff, 0xf0])
        #expect(Self.oursStandard("\u{FFFD}w") == nil && Self.oursURL("\u{FFFD}w") == nil)
    }
}
