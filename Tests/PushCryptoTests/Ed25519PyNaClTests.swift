import Testing
@testable import PushCrypto

/// `Spec/vectors/ed25519-pynacl.json`: signatures made by PyNaCl. Ed25519 is deterministic,
/// so we must verify them and also reproduce them exactly.
@Suite struct Ed25519PyNaClTests {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        let name, seed, publicKey, message, signature: String
        var testDescription: String { name }
    }
    struct File: Decodable { let cases: [Case] }

    static let cases: [Case] = (try? VectorFile.load("ed25519-pynacl.json", as: File.self).cases) ?? []

    @Test func fileLoads() { #expect(Self.cases.count >= 5) }

    @Test(arguments: cases) func verifiesAndReproduces(_ c: Case) throws {
        let publicKey = try Hex.decode(c.publicKey)
        let message = try Hex.decode(c.message)
        let signature = try Base64.decode(c.signature)
        #expect(Ed25519.verify(signature: signature, message: message, publicKey: publicKey))

        let pair = try Ed25519.KeyPair(seed: Hex.decode(c.seed))
        #expect(pair.publicKey == publicKey)
        #expect(pair.sign(message) == signature)

        for bit in [0, 100, 511] {
            var flipped = signature
            flipped[bit / 8] ^= UInt8(1) << UInt8(bit % 8)
            #expect(!Ed25519.verify(signature: flipped, message: message, publicKey: publicKey))
        }
        #expect(!Ed25519.verify(signature: signature, message: message + [0], publicKey: publicKey))
    }
}
