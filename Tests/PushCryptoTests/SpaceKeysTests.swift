import Testing
@testable import PushCrypto

@Suite struct SpaceKeysTests {
    let metadataSeed = try! Hex.decode("396d0ebf30bd03dbd4c5551b2025de8e1e96dde921cef1db2d6426a6ab2c498b")
    let readKey = try! Hex.decode("f528f5fe41ccf5673e3d3f60f47197d9908bb29122adbc2b59fff905d21b5df2")

    @Test func metadataKeyOfWrongLengthIsRefused() {
        for count in [0, 31, 33, 63, 65, 96] {
            #expect(throws: CryptoError.invalidKeyLength(expected: 64, got: count)) {
                try SpaceKeys.derive(firstMetadataKey: [UInt8](repeating: 3, count: count), readKey: readKey)
            }
        }
    }

    @Test func metadataKeyWithMismatchedPublicHalfIsRefused() throws {
        var goForm = try Ed25519.KeyPair(seed: metadataSeed).expandedSecretKey
        goForm[63] ^= 1
        #expect(throws: CryptoError.invalidEncoding("metadata key: public half does not match its seed")) {
            try SpaceKeys.pushKey(firstMetadataKey: goForm)
        }
        let otherPublic = try Ed25519.KeyPair(seed: [UInt8](repeating: 9, count: 32)).publicKey
        #expect(throws: CryptoError.self) { try SpaceKeys.pushKey(firstMetadataKey: metadataSeed + otherPublic) }
    }

    @Test func readKeyMustBe32Bytes() {
        for count in [0, 16, 31, 33, 64] {
            #expect(throws: CryptoError.invalidKeyLength(expected: 32, got: count)) {
                try SpaceKeys.payloadKey(readKey: [UInt8](repeating: 1, count: count))
            }
        }
    }

    @Test func bothMetadataFormsGiveTheSameKeyAndKeysDependOnTheirInputOnly() throws {
        let goForm = try Ed25519.KeyPair(seed: metadataSeed).expandedSecretKey
        let a = try SpaceKeys.derive(firstMetadataKey: metadataSeed, readKey: readKey)
        let b = try SpaceKeys.derive(firstMetadataKey: goForm, readKey: [UInt8](repeating: 0, count: 32))
        #expect(a.pushKey.spaceKey == b.pushKey.spaceKey)
        #expect(a.payloadKey.keyId != b.payloadKey.keyId)  // the payload key rotates with the read key
    }
}
