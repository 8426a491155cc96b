import Foundation
import Testing
@testable import PushCrypto

@Suite struct PayloadKeyTests {
    let plaintext = Array(#"{"type":1,"newMessage":{"text":"hi"}}"#.utf8)

    @Test func roundTripsWithFreshNonces() throws {
        let key = PayloadKey.generate()
        let a = try key.seal(plaintext)
        let b = try key.seal(plaintext)
        #expect(a.bytes.count == plaintext.count + 28)
        #expect(a.nonce != b.nonce)
        #expect(try key.open(a) == plaintext)
        #expect(try key.open(SealedPayload(base64: b.base64)) == plaintext)
    }

    @Test func emptyPlaintextSealsTo28Bytes() throws {
        let key = PayloadKey.generate()
        let sealed = try key.seal([])
        #expect(sealed.bytes.count == SealedPayload.overhead)
        #expect(try key.open(sealed) == [])
    }

    @Test func anyAlteredByteFailsAuthentication() throws {
        let key = PayloadKey.generate()
        let sealed = try key.seal(plaintext)
        // nonce, first ciphertext byte, last ciphertext byte, first and last tag byte
        for index in [0, 11, 12, 12 + plaintext.count - 1, sealed.bytes.count - 16, sealed.bytes.count - 1] {
            var bytes = sealed.bytes
            bytes[index] ^= 0x01
            #expect(throws: CryptoError.authenticationFailed, "byte \(index)") { try key.open(SealedPayload(bytes: bytes)) }
        }
    }

    @Test func wrongKeyFailsAuthentication() throws {
        let sealed = try PayloadKey.generate().seal(plaintext)
        #expect(throws: CryptoError.authenticationFailed) { try PayloadKey.generate().open(sealed) }
    }

    @Test func truncatedPayloadsAreRefused() throws {
        let key = PayloadKey.generate()
        let sealed = try key.seal(plaintext)
        for count in [0, 1, 12, 27] {
            #expect(throws: CryptoError.self) { try SealedPayload(bytes: Array(sealed.bytes.prefix(count))) }
        }
        // 28 bytes parse but cannot open; neither can a payload missing its last byte.
        #expect(throws: CryptoError.authenticationFailed) { try key.open(SealedPayload(bytes: Array(sealed.bytes.prefix(28)))) }
        #expect(throws: CryptoError.authenticationFailed) { try key.open(SealedPayload(bytes: Array(sealed.bytes.dropLast()))) }
    }

    @Test func malformedBase64IsRefused() {
        // not base64; too short; unpadded; base64url alphabet; embedded whitespace
        let valid = "St15nDazpfWUu4+IX6vUeYLWYWk2qzmYTtBLjIVTAu4ai+uowLSkFLg9"
        #expect(throws: Never.self) { try SealedPayload(base64: valid) }
        for text in ["not base64!", "AAAA", String(valid.dropLast(2)),
                     valid.replacingOccurrences(of: "+", with: "-"), " " + valid] {
            #expect(throws: CryptoError.self, "\(text)") { try SealedPayload(base64: text) }
        }
    }

    @Test func keyIdIsLowercaseHexSHA256AndKeyLengthIsChecked() throws {
        let raw = [UInt8](repeating: 0xab, count: 32)
        let key = try PayloadKey(rawKey: raw)
        #expect(key.keyId == SHA256.hex(raw))
        #expect(key.keyId.count == 64 && key.keyId == key.keyId.lowercased())
        #expect(try PayloadKey(base64: key.base64).isSameKey(as: key))
        #expect(!PayloadKey.generate().isSameKey(as: key))
        #expect(throws: CryptoError.invalidKeyLength(expected: 32, got: 16)) { try PayloadKey(rawKey: Array(raw.prefix(16))) }
        #expect(throws: CryptoError.self) { try key.seal(plaintext, nonce: [0, 1, 2]) }
    }
}
