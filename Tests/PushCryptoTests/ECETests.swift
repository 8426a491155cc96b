import Testing
@testable import PushCrypto

@Suite struct ECETests {
    let cases: [[String: Any]]
    init() throws { cases = try VectorFile.object("rfc8188.json")["cases"] as? [[String: Any]] ?? [] }

    @Test func bothRFC8188ExamplesEncryptExactlyAndDecrypt() throws {
        #expect(cases.count == 2)
        for vector in cases {
            let plaintext = Array(try vector.string("plaintext").utf8)
            let body = try ECE.encrypt(
                plaintext, ikm: vector.bytes("ikm"), salt: vector.bytes("salt"), recordSize: vector.int("recordSize"),
                keyID: Array(vector.string("keyId").utf8), padding: vector.int("padding"))
            let name = try vector.string("name")
            #expect(body == (try vector.bytes("body")), "\(name)")
            #expect(try ECE.decrypt(vector.bytes("body"), ikm: vector.bytes("ikm")) == plaintext)
        }
    }

    @Test func section31IntermediateValues() throws {
        let vector = cases[0]
        let prk = try HKDFSHA256.extract(salt: try vector.bytes("salt"), ikm: try vector.bytes("ikm"))
        #expect(prk == (try vector.bytes("prk")))
        let keys = try ECE.contentKeys(ikm: try vector.bytes("ikm"), salt: try vector.bytes("salt"))
        #expect(keys.key == (try vector.bytes("cek")))
        #expect(keys.nonce == (try vector.bytes("nonce")))
    }

    @Test func keyIDIsHandedToTheKeyLookup() throws {
        let vector = cases[1]
        var seen: [UInt8] = []
        let plaintext = try ECE.decrypt(vector.bytes("body")) { id in
            seen = id
            return try vector.bytes("ikm")
        }
        #expect(seen == Array("a1".utf8))
        #expect(plaintext == Array("I am the walrus".utf8))
    }

    @Test func roundTripsAcrossRecordSizesAndPadding() throws {
        let ikm = SecureRandom.bytes(16)
        for size in [0, 1, 7, 8, 9, 100, 1000] {
            for recordSize in [18, 19, 25, 64, 4096] {
                for padding in [0, 1, 30] {
                    let plaintext = SecureRandom.bytes(size)
                    let body = try ECE.encrypt(
                        plaintext, ikm: ikm, salt: SecureRandom.bytes(16), recordSize: recordSize, padding: padding)
                    #expect(try ECE.decrypt(body, ikm: ikm) == plaintext)
                }
            }
        }
    }

    @Test func tamperedTagOrCiphertextOrWrongKeyFailsAuthentication() throws {
        let vector = cases[1]
        let body = try vector.bytes("body")
        let ikm = try vector.bytes("ikm")
        for index in [23, 40, 47, 48, 72] {  // first record's ciphertext and tag, second record's tag
            var tampered = body
            tampered[index] ^= 0x01
            #expect(throws: CryptoError.authenticationFailed) { try ECE.decrypt(tampered, ikm: ikm) }
        }
        #expect(throws: CryptoError.authenticationFailed) { try ECE.decrypt(body, ikm: SecureRandom.bytes(16)) }
        var salt = body
        salt[0] ^= 0x01
        #expect(throws: CryptoError.authenticationFailed) { try ECE.decrypt(salt, ikm: ikm) }
    }

    @Test func truncationIsCaught() throws {
        let vector = cases[1]
        let body = try vector.bytes("body")
        let ikm = try vector.bytes("ikm")
        // Cut at the record boundary: the remaining last record ends with delimiter 1.
        #expect(throws: CryptoError.invalidRecord("last record does not end with delimiter 2")) {
            try ECE.decrypt(Array(body.prefix(23 + 25)), ikm: ikm)
        }
        #expect(throws: CryptoError.authenticationFailed) { try ECE.decrypt(Array(body.dropLast()), ikm: ikm) }
        #expect(throws: CryptoError.invalidRecord("truncated record")) {
            try ECE.decrypt(Array(body.prefix(23 + 25 + 16)), ikm: ikm)
        }
        #expect(throws: CryptoError.invalidRecord("no records")) { try ECE.decrypt(Array(body.prefix(23)), ikm: ikm) }
        #expect(throws: CryptoError.invalidRecord("truncated key id")) { try ECE.decrypt(Array(body.prefix(22)), ikm: ikm) }
        #expect(throws: CryptoError.invalidRecord("truncated header")) { try ECE.decrypt(Array(body.prefix(20)), ikm: ikm) }
    }

    @Test func delimitersAreChecked() throws {
        let ikm = SecureRandom.bytes(16)
        #expect(throws: CryptoError.invalidRecord("record without delimiter")) {
            try ECE.decrypt(Self.craft([[0, 0, 0]], ikm: ikm, recordSize: 4096), ikm: ikm)
        }
        #expect(throws: CryptoError.invalidRecord("truncated record")) {
            try ECE.decrypt(Self.craft([[]], ikm: ikm, recordSize: 4096), ikm: ikm)
        }
        #expect(throws: CryptoError.invalidRecord("last record does not end with delimiter 2")) {
            try ECE.decrypt(Self.craft([[0x41, 0x01]], ikm: ikm, recordSize: 4096), ikm: ikm)
        }
        #expect(throws: CryptoError.invalidRecord("last record does not end with delimiter 2")) {
            try ECE.decrypt(Self.craft([[0x41, 0x03, 0, 0]], ikm: ikm, recordSize: 4096), ikm: ikm)
        }
        // A middle record (rs = 19: three bytes of content) must end with 1, not 2.
        #expect(throws: CryptoError.invalidRecord("record delimiter is not 1")) {
            try ECE.decrypt(Self.craft([[0x41, 0x02, 0], [0x42, 0x02]], ikm: ikm, recordSize: 19), ikm: ikm)
        }
        // Padding after the delimiter is stripped; zeros before it are data.
        let padded = try ECE.decrypt(Self.craft([[0, 0x41, 0x01], [0x42, 0x02, 0]], ikm: ikm, recordSize: 19), ikm: ikm)
        #expect(padded == [0, 0x41, 0x42])
    }

    @Test func headerLimits() throws {
        #expect(throws: CryptoError.self) { try ECE.encrypt([1], ikm: [1], salt: SecureRandom.bytes(16), recordSize: 17) }
        #expect(throws: CryptoError.self) { try ECE.encrypt([1], ikm: [1], salt: SecureRandom.bytes(15)) }
        #expect(throws: CryptoError.self) {
            try ECE.encrypt([1], ikm: [1], salt: SecureRandom.bytes(16), keyID: [UInt8](repeating: 0x61, count: 256))
        }
        var body = try ECE.encrypt([1], ikm: [1], salt: SecureRandom.bytes(16))
        body[16...19] = [0, 0, 0, 17]
        #expect(throws: CryptoError.self) { try ECE.decrypt(body, ikm: [1]) }
        let header = try ECE.Header(salt: [UInt8](repeating: 7, count: 16), recordSize: 0x01020304, keyID: [9])
        #expect(try ECE.Header(parsing: header.encoded) == header)
        #expect(Array(header.encoded[16...]) == [1, 2, 3, 4, 1, 9])
    }

    /// A body whose records have exactly the given unencrypted contents (delimiters included).
    static func craft(_ records: [[UInt8]], ikm: [UInt8], recordSize: Int) throws -> [UInt8] {
        let salt = SecureRandom.bytes(16)
        let keys = try ECE.contentKeys(ikm: ikm, salt: salt)
        var body = try ECE.Header(salt: salt, recordSize: recordSize).encoded
        for (sequence, record) in records.enumerated() {
            body += try AESGCM.seal(record, key: keys.key, nonce: ECE.recordNonce(keys.nonce, sequence: sequence))
        }
        return body
    }
}
