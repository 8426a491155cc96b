import Testing
@testable import PushCrypto

@Suite struct SpacePushKeyTests {
    let key = try! SpacePushKey(seed: [UInt8](repeating: 5, count: 32))

    @Test func spaceKeyIsBase58OfThePublicKey() throws {
        #expect(try Base58.decode(key.spaceKey) == key.publicKey)
        #expect(try SpacePushKey.decode(spaceKey: key.spaceKey) == key.publicKey)
    }

    @Test func topicSignatureCoversTheTopicOnly() {
        let signature = key.sign(topic: "chats")
        #expect(SpacePushKey.verify(spaceKey: key.spaceKey, topic: "chats", signature: signature))
        #expect(!SpacePushKey.verify(spaceKey: key.spaceKey, topic: "chats/", signature: signature))
        #expect(!SpacePushKey.verify(spaceKey: key.spaceKey, topic: "\(key.spaceKey)/chats", signature: signature))
        let other = try! SpacePushKey(seed: [UInt8](repeating: 6, count: 32))
        #expect(!SpacePushKey.verify(spaceKey: other.spaceKey, topic: "chats", signature: signature))
    }

    @Test func registrationSignatureCoversTheAccountIdText() throws {
        let account = try AccountID("ABCw4rFBR7qU2HGzHwnKLYo9mMRcjGhFK28gSy58RKc5feqz")
        let signature = key.signRegistration(accountId: account)
        #expect(signature == key.keyPair.sign(Array(account.string.utf8)))
        #expect(SpacePushKey.verifyRegistration(spaceKey: key.spaceKey, accountId: account, signature: signature))
        let other = try AccountID("AAmVumbaGtQWyLCesrsYB9NAaBfJUvRNY6ztF7J7UEU927Wy")
        #expect(!SpacePushKey.verifyRegistration(spaceKey: key.spaceKey, accountId: other, signature: signature))
    }

    @Test func malformedSpaceKeysAreRefused() {
        let signature = key.sign(topic: "chats")
        let tooShort = Base58.encode(Array(key.publicKey.prefix(31)))
        let tooLong = Base58.encode(key.publicKey + [0])
        for bad in ["", "0OIl", String(key.spaceKey.dropLast()) + "0", tooShort, tooLong] {
            #expect(throws: CryptoError.self, "\(bad)") { try SpacePushKey.decode(spaceKey: bad) }
            #expect(!SpacePushKey.verify(spaceKey: bad, topic: "chats", signature: signature))
        }
    }

    @Test func seedMustBe32Bytes() {
        #expect(throws: CryptoError.invalidKeyLength(expected: 32, got: 31)) { try SpacePushKey(seed: [UInt8](repeating: 1, count: 31)) }
    }
}
