import Foundation
import PushCrypto
import Testing
@testable import PushClient

@Suite struct PushReceiverTests {
    static let vectorData = [
        "x-any-type": "normal",
        "x-any-group-id": ChatTopics.groupId(chatId: AnyCompatVector.chatId),
        "x-any-payload": AnyCompatVector.payload,
        "x-any-signature": AnyCompatVector.payloadSignature,
        "x-any-key-id": AnyCompatVector.encKeyId,
    ]

    @Test func opensTheVectorPush() throws {
        let opened = try Fixtures.receiver().open(data: Self.vectorData)
        guard case .opened(let payload) = opened else { Issue.record("not opened: \(opened)"); return }
        #expect(payload.senderId == AnyCompatVector.accountId)
        #expect(payload.newMessage?.text == "hi é世")
        #expect(payload.newMessage?.chatId == AnyCompatVector.chatId)
        #expect(payload.type == PushPayload.chatMessage)
    }

    @Test func anUncachedKeyIsReportedNotFailed() throws {
        #expect(try PushReceiver().open(data: Self.vectorData) == .unknownKey(keyId: AnyCompatVector.encKeyId))
    }

    @Test func aPushWithoutPayloadIsASilentWakeUp() throws {
        #expect(try PushReceiver().open(data: ["x-any-type": "silent", "x-any-group-id": "g"]) == .noMessage)
    }

    @Test func aSignatureByAnyoneButTheSenderIsRefused() throws {
        var data = Self.vectorData
        let sealed = try Base64.decode(AnyCompatVector.payload)
        data["x-any-signature"] = Base64.encode(AccountKey.generate().sign(sealed))
        #expect(throws: PushClientError(code: .badSignature, message: "x-any-signature is not the sender's")) {
            try Fixtures.receiver().open(data: data)
        }
    }

    /// A payload re-sealed by someone holding the space key but claiming another sender.
    @Test func aValidSignatureOverOtherBytesIsRefused() throws {
        var data = Self.vectorData
        let other = try Fixtures.sealer.seal(Array(AnyCompatVector.plaintext.utf8)).bytes
        data["x-any-payload"] = Base64.encode(other)
        #expect(throws: PushClientError(code: .badSignature, message: "x-any-signature is not the sender's")) {
            try Fixtures.receiver().open(data: data)
        }
    }

    @Test func tamperedBytesDoNotOpen() throws {
        var sealed = try Base64.decode(AnyCompatVector.payload)
        sealed[20] ^= 0x01
        var data = Self.vectorData
        data["x-any-payload"] = Base64.encode(sealed)
        #expect(throws: PushClientError(code: .doesNotOpen, message: "the payload does not open with this key")) {
            try Fixtures.receiver().open(data: data)
        }
        data["x-any-payload"] = Base64.encode([UInt8](repeating: 0, count: 20))
        #expect(throws: PushClientError(code: .doesNotOpen, message: "the payload does not open with this key")) {
            try Fixtures.receiver().open(data: data)
        }
    }

    @Test func badBase64AndMissingKeysAreErrors() throws {
        for field in ["x-any-payload", "x-any-signature"] {
            var data = Self.vectorData
            data[field] = "not base64!"
            #expect(throws: PushClientError(code: .badBase64, message: "\(field) is not standard base64")) {
                try Fixtures.receiver().open(data: data)
            }
        }
        for field in ["x-any-key-id", "x-any-signature"] {
            var data = Self.vectorData
            data[field] = nil
            #expect(throws: PushClientError(code: .missingField, message: "\(field) is missing")) {
                try Fixtures.receiver().open(data: data)
            }
        }
    }

    @Test func aPayloadThatIsNotTheJSONIsRefused() throws {
        let sealed = try Fixtures.sealer.seal(Array("not json".utf8)).bytes
        let data = ["x-any-payload": Base64.encode(sealed), "x-any-key-id": AnyCompatVector.encKeyId,
                    "x-any-signature": Base64.encode(Fixtures.account.sign(sealed))]
        #expect(throws: PushClientError(code: .badPayload, message: "the payload is not the expected JSON")) {
            try Fixtures.receiver().open(data: data)
        }
    }

    @Test func theKeyCacheIsAppendOnlyAcrossRotations() throws {
        let cache = PayloadKeyCache()
        let old = try cache.add(key: Fixtures.payloadKey)
        let rotated = SecureRandom.bytes(32)
        try cache.add(keyId: SHA256.hex(rotated), key: rotated)
        #expect(cache.count == 2)
        #expect(cache.key(for: old) == Fixtures.payloadKey, "the old key stays for late pushes")
        #expect(cache.key(for: old.uppercased()) == Fixtures.payloadKey)
        #expect(throws: PushClientError(code: .keyIdMismatch, message: "keyId does not match the key")) {
            try cache.add(keyId: old, key: SecureRandom.bytes(32))
        }
        #expect(try PushReceiver(keys: cache).open(data: Self.vectorData) != .unknownKey(keyId: old))
    }

    @Test func theKeyCacheIsSafeAcrossThreads() async throws {
        let cache = PayloadKeyCache()
        let keys = (0..<200).map { _ in SecureRandom.bytes(32) }
        await withTaskGroup(of: Void.self) { group in
            for key in keys { group.addTask { _ = try? cache.add(key: key); _ = cache.key(for: SHA256.hex(key)) } }
        }
        #expect(cache.count == 200)
        #expect(keys.allSatisfy { cache.key(for: SHA256.hex($0)) == $0 })
    }

    // MARK: A generic payload: the sender's own bytes, its account named by the receiver

    /// The vector push opened as bytes: the plaintext exactly, signed by the vector account.
    @Test func aGenericPushOpensToTheSealedBytesOfTheNamedSender() throws {
        let sender = try AccountID(AnyCompatVector.accountId)
        #expect(try Fixtures.receiver().open(data: Self.vectorData, signedBy: sender)
            == .opened(Array(AnyCompatVector.plaintext.utf8)))
        #expect(try PushReceiver().open(data: Self.vectorData, signedBy: sender) == .unknownKey(keyId: AnyCompatVector.encKeyId))
        #expect(try Fixtures.receiver().open(data: ["x-any-type": "normal", "x-any-group-id": "g", "x-any-id": "n"],
                                             signedBy: sender) == .noMessage)
    }

    @Test func aGenericPushSignedByAnyoneElseOrAlteredIsRefused() throws {
        let other = AccountKey.generate().accountID
        #expect(throws: PushClientError(code: .badSignature, message: "x-any-signature is not the sender's")) {
            try Fixtures.receiver().open(data: Self.vectorData, signedBy: other)
        }
        var sealed = try Base64.decode(AnyCompatVector.payload)
        sealed[20] ^= 1
        var data = Self.vectorData
        data["x-any-payload"] = Base64.encode(sealed)
        #expect(throws: PushClientError(code: .badSignature, message: "x-any-signature is not the sender's")) {
            try Fixtures.receiver().open(data: data, signedBy: try AccountID(AnyCompatVector.accountId))
        }
        // Signed by the sender but sealed under another key announced with this key id.
        let foreign = try PayloadKey.generate().seal([1, 2, 3]).bytes
        data["x-any-payload"] = Base64.encode(foreign)
        data["x-any-signature"] = Base64.encode(Fixtures.account.sign(foreign))
        #expect(throws: PushClientError(code: .doesNotOpen, message: "the payload does not open with this key")) {
            try Fixtures.receiver().open(data: data, signedBy: Fixtures.account.accountID)
        }
    }
}
