import Foundation
import Testing
@testable import PushCrypto

/// `Spec/vectors/any-compat.json`: space keys, signatures and sealing, byte for byte.
@Suite struct AnyCompatVectorTests {
    struct Case: Decodable, Sendable, CustomTestStringConvertible {
        let name, metadataKeySeed, metadataKeyRaw64, spacePushSeed, spacePushPublic, spaceKey: String
        let readKey, encKey, encKeyBase64, encKeyId, accountSeed, accountPublic, accountId: String
        let topic, topicSignature, spaceRegistrationSignature, plaintext, nonce, payload, payloadSignature: String
        let sealedSize: Int
        var testDescription: String { name }
    }

    struct File: Decodable { let cases: [Case] }

    static let cases: [Case] = (try? VectorFile.load("any-compat.json", as: File.self).cases) ?? []

    @Test func fileHasTheReferenceAndOwnCases() {
        #expect(Self.cases.count >= 4)
        #expect(Self.cases.first?.spaceKey == "2LdP4HGLw6M8MFLGhiJYLrRwYrgQV7KeS9DeHraYULyn")
        #expect(Self.cases.contains { $0.plaintext == "{}" })
        #expect(Self.cases.contains { $0.sealedSize == 2816 })
    }

    @Test(arguments: cases) func spaceKeysFromBothMetadataKeyForms(_ c: Case) throws {
        for form in [c.metadataKeySeed, c.metadataKeyRaw64] {
            let keys = try SpaceKeys.derive(firstMetadataKey: Hex.decode(form), readKey: Hex.decode(c.readKey))
            #expect(keys.pushKey.spaceKey == c.spaceKey)
            #expect(Hex.encode(keys.pushKey.publicKey) == c.spacePushPublic)
            #expect(Hex.encode(keys.pushKey.keyPair.seed) == c.spacePushSeed)
            #expect(Hex.encode(keys.payloadKey.rawKey) == c.encKey)
            #expect(keys.payloadKey.base64 == c.encKeyBase64)
            #expect(keys.payloadKey.keyId == c.encKeyId)
        }
    }

    @Test(arguments: cases) func intermediateValues(_ c: Case) throws {
        #expect(Hex.encode(try SpaceKeys.expandedMetadataKey(Hex.decode(c.metadataKeySeed))) == c.metadataKeyRaw64)
        #expect(Hex.encode(try SLIP10.ed25519Key(seed: Hex.decode(c.metadataKeyRaw64), path: "m/99999'/1'")) == c.spacePushSeed)
        #expect(Hex.encode(try SLIP21.key(seed: Hex.decode(c.readKey), path: "m/SLIP-0021/anytype/space/key")) == c.encKey)
        #expect(SHA256.hex(try Hex.decode(c.encKey)) == c.encKeyId)
        let account = try AccountKey(seed: Hex.decode(c.accountSeed))
        #expect(Hex.encode(account.keyPair.publicKey) == c.accountPublic)
        #expect(account.accountID.string == c.accountId)
    }

    @Test(arguments: cases) func signatures(_ c: Case) throws {
        let pushKey = try SpaceKeys.pushKey(firstMetadataKey: Hex.decode(c.metadataKeyRaw64))
        let account = try AccountID(c.accountId)
        #expect(Base64.encode(pushKey.sign(topic: c.topic)) == c.topicSignature)
        #expect(Base64.encode(pushKey.signRegistration(accountId: account)) == c.spaceRegistrationSignature)
        #expect(SpacePushKey.verify(spaceKey: c.spaceKey, topic: c.topic, signature: try Base64.decode(c.topicSignature)))
        #expect(SpacePushKey.verifyRegistration(spaceKey: c.spaceKey, accountId: account,
                                                signature: try Base64.decode(c.spaceRegistrationSignature)))
        // A topic signature does not register and vice versa (unless the topic is the account id itself).
        if c.topic != c.accountId {
            #expect(!SpacePushKey.verify(spaceKey: c.spaceKey, topic: c.accountId, signature: try Base64.decode(c.topicSignature)))
        }
        let sealed = try SealedPayload(base64: c.payload)
        let sender = try AccountKey(seed: Hex.decode(c.accountSeed))
        #expect(Base64.encode(sender.sign(sealed.bytes)) == c.payloadSignature)
        #expect(account.verify(signature: try Base64.decode(c.payloadSignature), message: sealed.bytes))
    }

    @Test(arguments: cases) func sealingAndOpening(_ c: Case) throws {
        let key = try PayloadKey(base64: c.encKeyBase64)
        let sealed = try key.seal(Array(c.plaintext.utf8), nonce: Hex.decode(c.nonce))
        #expect(sealed.base64 == c.payload)
        #expect(sealed.bytes.count == c.sealedSize)
        #expect(SealedPayload.sealedSize(plaintextCount: c.plaintext.utf8.count) == c.sealedSize)
        #expect(Hex.encode(sealed.nonce) == c.nonce)
        #expect(try key.open(SealedPayload(base64: c.payload)) == Array(c.plaintext.utf8))
    }
}
