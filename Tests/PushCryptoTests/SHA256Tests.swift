import CSodium
import Testing
@testable import PushCrypto

/// `SHA256` (OpenSSL) against FIPS 180-4's examples and libsodium's SHA-256, for contiguous and
/// non-contiguous inputs of every length around the 64-byte block.
@Suite struct SHA256Tests {
    @Test func theStandardsExamples() {
        #expect(SHA256.hex([UInt8]()) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
        #expect(SHA256.hex(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
        #expect(SHA256.hex(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
                == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    }

    @Test func agreesWithLibsodiumOnEveryLengthAroundTheBlock() {
        for length in 0...300 {
            let bytes = (0..<length).map { _ in UInt8.random(in: 0...255) }
            var expected = [UInt8](repeating: 0, count: 32)
            crypto_hash_sha256(&expected, bytes, UInt64(length))
            #expect(SHA256.hash(bytes) == expected)
            #expect(SHA256.hash(bytes.lazy.map { $0 }) == expected)     // a collection with no contiguous storage
            #expect(SHA256.hash(bytes[...]) == expected)
        }
    }
}
