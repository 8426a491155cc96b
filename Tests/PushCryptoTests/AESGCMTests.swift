import Testing
@testable import PushCrypto

@Suite struct AESGCMTests {
    // NIST GCM test case 16 key/iv/plaintext truncated: checked instead by round trip plus tamper.
    @Test func roundTripsAndRejectsTampering() throws {
        for keySize in [16, 32] {
            let key = SecureRandom.bytes(keySize)
            let nonce = SecureRandom.bytes(12)
            let plaintext = Array("hello, push".utf8)
            var sealed = try AESGCM.seal(plaintext, key: key, nonce: nonce)
            #expect(sealed.count == plaintext.count + 16)
            #expect(try AESGCM.open(sealed, key: key, nonce: nonce) == plaintext)
            sealed[0] ^= 1
            #expect(throws: CryptoError.authenticationFailed) { try AESGCM.open(sealed, key: key, nonce: nonce) }
        }
    }

    /// The GCM test vector of McGrew & Viega, test case 13 (AES-256, zero key, zero IV, empty text).
    @Test func emptyPlaintextVector() throws {
        let sealed = try AESGCM.seal([], key: [UInt8](repeating: 0, count: 32), nonce: [UInt8](repeating: 0, count: 12))
        #expect(Hex.encode(sealed) == "530f8afbc74536b9a963b4f1c4cb738b")
    }
}
