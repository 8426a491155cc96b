import Testing
@testable import PushCrypto

@Suite struct HKDFSHA256Tests {
    /// RFC 5869 Appendix A.1 (test case 1).
    @Test func rfc5869TestCase1() throws {
        let ikm = [UInt8](repeating: 0x0b, count: 22)
        let salt = Array(UInt8(0)...UInt8(0x0c))
        let info = Array(UInt8(0xf0)...UInt8(0xf9))
        let prk = try HKDFSHA256.extract(salt: salt, ikm: ikm)
        #expect(Hex.encode(prk) == "077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5")
        let okm = try HKDFSHA256.expand(prk: prk, info: info, length: 42)
        #expect(Hex.encode(okm) == "3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865")
        #expect(try HKDFSHA256.deriveKey(ikm: ikm, salt: salt, info: info, length: 42) == okm)
    }

    @Test func refusesOverlongOutput() {
        #expect(throws: CryptoError.self) { try HKDFSHA256.expand(prk: [1], info: [], length: 255 * 32 + 1) }
    }
}

@Suite struct SHA256HMACTests {
    /// RFC 4231 test case 2.
    @Test func rfc4231TestCase2() throws {
        let mac = try SHA256HMAC.authenticate(key: Array("Jefe".utf8), Array("what do ya ".utf8), Array("want for nothing?".utf8))
        #expect(Hex.encode(mac) == "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843")
    }

    /// Agrees with libsodium's HMAC-SHA-256 for keys shorter than, equal to and longer than a block.
    @Test func agreesWithLibsodium() throws {
        for keySize in [0, 16, 32, 64, 65, 200] {
            for messageSize in [0, 1, 55, 64, 145, 1000] {
                let key = SecureRandom.bytes(keySize)
                let message = SecureRandom.bytes(messageSize)
                #expect(try SHA256HMAC.authenticate(key: key, message) == HMACSHA256.authenticate(key: key, data: message))
            }
        }
    }
}
