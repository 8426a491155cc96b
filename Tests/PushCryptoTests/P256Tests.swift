import Testing
@testable import PushCrypto

@Suite struct P256Tests {
    let vector: [String: Any]
    init() throws { vector = try VectorFile.object("rfc8291.json") }

    @Test func rawScalarGivesTheKnownPublicKey() throws {
        let key = try P256.PrivateKey(rawRepresentation: vector.bytes("asPrivate"))
        #expect(try key.publicKeyRawRepresentation == vector.bytes("asPublic"))
        #expect(try key.base64URLRepresentation == vector.string("asPrivate"))
        #expect(try P256.PrivateKey(base64URL: vector.string("uaPrivate")).publicKey.base64URLRepresentation
            == vector.string("uaPublic"))
    }

    @Test func ecdhMatchesRFC8291FromBothSides() throws {
        let asKey = try P256.PrivateKey(base64URL: vector.string("asPrivate"))
        let uaKey = try P256.PrivateKey(base64URL: vector.string("uaPrivate"))
        let expected = try vector.bytes("ecdhSecret")
        #expect(try asKey.sharedSecret(with: P256.PublicKey(base64URL: vector.string("uaPublic"))) == expected)
        #expect(try uaKey.sharedSecret(with: asKey.publicKey) == expected)
    }

    @Test func generatedKeysAgreeAndDiffer() throws {
        let a = try P256.PrivateKey.generate()
        let b = try P256.PrivateKey.generate()
        #expect(try a.rawRepresentation != b.rawRepresentation)
        #expect(try a.sharedSecret(with: b.publicKey) == b.sharedSecret(with: a.publicKey))
        let copy = try P256.PrivateKey(rawRepresentation: a.rawRepresentation)
        #expect(try copy.publicKeyRawRepresentation == a.publicKeyRawRepresentation)
    }

    @Test func refusesScalarsOutsideTheGroupOrder() {
        let order = try! Hex.decode("ffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551")
        #expect(throws: CryptoError.self) { try P256.PrivateKey(rawRepresentation: [UInt8](repeating: 0, count: 32)) }
        #expect(throws: CryptoError.self) { try P256.PrivateKey(rawRepresentation: order) }
        #expect(throws: CryptoError.invalidKeyLength(expected: 32, got: 31)) {
            try P256.PrivateKey(rawRepresentation: [UInt8](repeating: 1, count: 31))
        }
    }

    @Test func publicKeyMustBeAnUncompressedPointOnTheCurve() throws {
        let point = try vector.bytes("uaPublic")
        #expect(try P256.PublicKey(rawRepresentation: point).rawRepresentation == point)

        var offCurve = point
        offCurve[64] ^= 0x01
        #expect(throws: CryptoError.invalidPoint) { try P256.PublicKey(rawRepresentation: offCurve) }
        var wrongPrefix = point
        wrongPrefix[0] = 0x05
        #expect(throws: CryptoError.invalidPoint) { try P256.PublicKey(rawRepresentation: wrongPrefix) }
        #expect(throws: CryptoError.invalidKeyLength(expected: 65, got: 64)) {
            try P256.PublicKey(rawRepresentation: Array(point.dropFirst()))
        }
        let compressed = [0x02 | (point[64] & 1)] + point[1...32]
        #expect(throws: CryptoError.invalidKeyLength(expected: 65, got: 33)) {
            try P256.PublicKey(rawRepresentation: compressed)
        }
        #expect(throws: CryptoError.invalidPoint) {
            try P256.PublicKey(rawRepresentation: [0x04] + [UInt8](repeating: 0, count: 64))
        }
    }

    @Test func signaturesVerifyAndTamperingIsCaught() throws {
        let key = try P256.PrivateKey.generate()
        let message = Array("signing input".utf8)
        let signature = try key.signature(for: message)
        #expect(signature.count == 64)
        let publicKey = try key.publicKey
        #expect(publicKey.isValidSignature(signature, for: message))
        #expect(!publicKey.isValidSignature(signature, for: message + [0]))
        var bad = signature
        bad[10] ^= 0x80
        #expect(!publicKey.isValidSignature(bad, for: message))
        #expect(!publicKey.isValidSignature(Array(signature.prefix(63)), for: message))
        #expect(try !P256.PrivateKey.generate().publicKey.isValidSignature(signature, for: message))
    }
}
