import PushCrypto
import Testing
@testable import PushProtocol

@Suite struct SpaceKeyTests {
    /// A parsed key keeps its text, which is the one encoding of its bytes (leading zero bytes included).
    @Test(arguments: [Array(1...32), [0] + Array(1...31), [0, 0, 0] + [UInt8](repeating: 255, count: 29),
                      [UInt8](repeating: 0, count: 32), [UInt8](repeating: 255, count: 32)])
    func parsedKeysKeepTheirCanonicalText(bytes: [UInt8]) throws {
        let text = Base58.encode(bytes)
        let key = try SpaceKey(text)
        #expect(key.publicKey == bytes)
        #expect(key.string == text)
        #expect(key == (try SpaceKey(publicKey: bytes)))
    }

    @Test(arguments: ["", "1", "abc", Base58.encode([UInt8](repeating: 255, count: 32)) + "2",
                      "14wBqpZM9xaSheZzJSMawUKKwhdpChKbZ5eu5ky4Vigw", "0OIl"])
    func textsThatAreNot32BytesAreRefused(text: String) {
        #expect(throws: CryptoError.self) { try SpaceKey(text) }
    }
}
