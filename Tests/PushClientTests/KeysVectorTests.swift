import PushCrypto
import Testing
@testable import PushClient

/// The default seam implementations against the independent vector.
@Suite struct KeysVectorTests {
    @Test func spacePushSignerMatchesTheVector() throws {
        let signer = Fixtures.signer
        #expect(signer.spaceKey == AnyCompatVector.spaceKey)
        #expect(try Base58.decode(signer.spaceKey) == Hex.decode(AnyCompatVector.spacePushPublic))
        #expect(Base64.encode(signer.sign(topic: AnyCompatVector.topic)) == AnyCompatVector.topicSignature)
        #expect(Base64.encode(signer.signRegistration(of: AnyCompatVector.accountId)) == AnyCompatVector.spaceRegistrationSignature)
    }

    @Test func sealerMatchesTheVectorWithItsNonce() throws {
        let sealer = Fixtures.sealer
        #expect(sealer.keyId == AnyCompatVector.encKeyId)
        #expect(sealer.sealedOverhead == 28)
        let sealed = try sealer.seal(Array(AnyCompatVector.plaintext.utf8), nonce: Hex.decode(AnyCompatVector.nonce))
        #expect(sealed.base64 == AnyCompatVector.payload)
        #expect(Base64.encode(Fixtures.account.sign(sealed.bytes)) == AnyCompatVector.payloadSignature)
        #expect(Fixtures.account.accountID.string == AnyCompatVector.accountId)
    }

    @Test func sealingUsesAFreshNonceAndAddsExactly28Bytes() throws {
        let plaintext = Array("hello".utf8)
        let a = try Fixtures.sealer.seal(plaintext).bytes
        let b = try Fixtures.sealer.seal(plaintext).bytes
        #expect(a.count == plaintext.count + 28)
        #expect(a.prefix(12) != b.prefix(12))
        #expect(try AESGCM.open(Array(a.dropFirst(12)), key: Fixtures.payloadKey, nonce: Array(a.prefix(12))) == plaintext)
    }

    @Test func sealerRefusesAKeyThatIsNot32Bytes() {
        #expect(throws: CryptoError.invalidKeyLength(expected: 32, got: 16)) { try PayloadKey(rawKey: [UInt8](repeating: 1, count: 16)) }
    }
}
