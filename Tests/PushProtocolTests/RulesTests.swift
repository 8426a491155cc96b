import PushCrypto
import Testing
@testable import PushProtocol

@Suite struct TopicRulesTests {
    @Test(arguments: [
        ("chats", true), ("", false), ("a", true), (String(repeating: "x", count: 256), true),
        (String(repeating: "x", count: 257), false), (String(repeating: "é", count: 128), true),
        (String(repeating: "é", count: 129), false), ("tab\there", false), ("nul\u{0}", false),
        ("del\u{7f}", false), ("c1\u{85}", false), ("emoji 🎉/ok", true), ("chats/abc/Aid", true),
    ])
    func topics(topic: String, valid: Bool) {
        #expect(TopicRules.isValidTopic(topic) == valid)
    }

    @Test(arguments: [
        ("g", true), ("", false), (String(repeating: "a", count: 64), true), (String(repeating: "a", count: 65), false),
        ("with space~", true), ("tab\t", false), ("ü", false), ("\u{7f}", false),
    ])
    func groupIds(groupId: String, valid: Bool) {
        #expect(TopicRules.isValidGroupId(groupId) == valid)
    }

    @Test func ttlBounds() {
        #expect(!TopicRules.isValidTTL(0))
        #expect(TopicRules.isValidTTL(1))
        #expect(TopicRules.isValidTTL(2_419_200))
        #expect(!TopicRules.isValidTTL(2_419_201))
        #expect(!TopicRules.isValidTTL(-5))
    }

    @Test func kindDefaults() {
        #expect(NotifyKind.message.defaultTTL == 86_400)
        #expect(NotifyKind.silent.defaultTTL == 3_600)
        #expect(NotifyKind.call.defaultTTL == 45)
    }

    @Test func keyIds() {
        #expect(TopicRules.isValidKeyId(String(repeating: "0f", count: 32)))
        #expect(!TopicRules.isValidKeyId(String(repeating: "0F", count: 32)))
        #expect(!TopicRules.isValidKeyId(String(repeating: "0f", count: 31)))
        #expect(!TopicRules.isValidKeyId(String(repeating: "zz", count: 32)))
    }

    @Test func notifyShapePaths() throws {
        let key = try SpaceKey(publicKey: Array(1...32))
        let good = Topic(spaceKey: key, topic: "chats", signature: [UInt8](repeating: 1, count: 64))
        let message = NotifyMessage(keyId: String(repeating: "a", count: 64), payload: [UInt8](repeating: 0, count: 28),
                                    signature: [UInt8](repeating: 1, count: 64))
        func error(_ r: NotifyRequest) -> APIError? {
            do { try r.validateShape(); return nil } catch { return error }
        }
        #expect(error(NotifyRequest(topics: [good], message: message)) == nil)
        #expect(error(NotifyRequest(topics: [], message: message))?.field == "topics")
        var badTopic = good
        badTopic.topic = ""
        #expect(error(NotifyRequest(topics: [good, badTopic], message: message))?.field == "topics[1].topic")
        var shortSig = good
        shortSig.signature = [1, 2]
        #expect(error(NotifyRequest(topics: [good, good, shortSig], message: message))?.field == "topics[2].signature")
        #expect(error(NotifyRequest(topics: [good], message: message, groupId: String(repeating: "x", count: 65)))?.field == "groupId")
        #expect(error(NotifyRequest(topics: [good], message: message, ttl: 0))?.field == "ttl")
        var m = message
        m.keyId = "ABC"
        #expect(error(NotifyRequest(topics: [good], message: m))?.field == "message.keyId")
        m = message
        m.payload = [1]
        #expect(error(NotifyRequest(topics: [good], message: m))?.field == "message.payload")
        m = message
        m.signature = []
        #expect(error(NotifyRequest(topics: [good], message: m))?.field == "message.signature")
    }

    @Test func aWakeHasNoMessageAndIsNeverADuplicate() throws {
        let key = try SpaceKey(publicKey: Array(1...32))
        let good = Topic(spaceKey: key, topic: "chats", signature: [UInt8](repeating: 1, count: 64))
        let wake = NotifyRequest(topics: [good], message: nil, groupId: "g")
        try wake.validateShape()
        #expect(wake.idempotencyKey == nil)
        #expect(wake.effectiveKind == .message && !wake.effectiveReplaces)
    }

    /// `replaces` names a group: explicitly, or through kind `clear`, which replaces unless told not to.
    @Test func replacingNeedsAGroupId() throws {
        let key = try SpaceKey(publicKey: Array(1...32))
        let good = Topic(spaceKey: key, topic: "chats", signature: [UInt8](repeating: 1, count: 64))
        func error(_ r: NotifyRequest) -> APIError? {
            do { try r.validateShape(); return nil } catch { return error }
        }
        let clear = NotifyRequest(topics: [good], message: nil, kind: .clear)
        #expect(clear.effectiveReplaces && clear.effectiveTTL == 60)
        #expect(error(clear).map { [$0.code.rawValue, $0.field ?? ""] } == ["request.missing_field", "groupId"])
        #expect(error(NotifyRequest(topics: [good], message: nil, replaces: true))?.field == "groupId")
        #expect(error(NotifyRequest(topics: [good], message: nil, kind: .clear, replaces: false)) == nil)
        #expect(error(NotifyRequest(topics: [good], message: nil, groupId: "call-1", kind: .clear)) == nil)
        let silent = NotifySilentRequest(topics: [], replaces: true)
        #expect((try? silent.validateShape()) == nil)
        try NotifySilentRequest(topics: [], groupId: "chat", replaces: true).validateShape()
    }
}

@Suite struct IdentifierTests {
    /// Vectors computed independently in Python: hashlib.sha256(b"\0".join(...)).digest()[:16].hex().
    @Test(arguments: [
        (Platform.webpush, "default", "", "https://push.example.net/wp/abc123", "89c5d808e46a7f5d2f42a89a4818beb0"),
        (Platform.apns, "com.example.app", "production",
         "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90", "0139595cf0705be5c39ce6b752daff99"),
        (Platform.android, "default", "", "fcm-token:APA91b", "0439e19a2b11ca264bba299c4d1994a4"),
    ])
    func registrationIdVectors(platform: Platform, appId: String, environment: String, token: String, expected: String) {
        #expect(RegistrationID.make(platform: platform, appId: appId, environment: environment, token: token) == expected)
    }

    @Test func registrationIdMatchesItsDefinition() {
        let input = Array("ios\u{0}app\u{0}\u{0}tok".utf8)
        #expect(RegistrationID.make(platform: .ios, appId: "app", environment: "", token: "tok")
                == Hex.encode(SHA256.hash(input).prefix(16)))
    }

    /// Python: sha256(b"pushnode-notify-v1\0" + sorted unique "spaceKey\0topic\0" + b"\x01" + groupId).
    @Test func canonicalIdempotencyKeyVector() throws {
        let k1 = try SpaceKey(publicKey: Array(1...32))
        let k2 = try SpaceKey(publicKey: [UInt8](repeating: 7, count: 32))
        #expect(k2.string == "US517G5965aydkZ46HS38QLi7UQiSojurfbQfKCELFx")
        let topics = [TopicRef(spaceKey: k2, topic: "chats"), TopicRef(spaceKey: k1, topic: "chats/x"),
                      TopicRef(spaceKey: k1, topic: "chats"), TopicRef(spaceKey: k2, topic: "chats")]
        let key = IdempotencyKey.canonical(topics: topics, groupId: "group-1")
        #expect(Hex.encode(key.bytes) == "e89d5aedaed3dd121c98f0fb26e5fd8256e91f32b731b5c149e9d7bb7f66e40c")
        #expect(IdempotencyKey.canonical(topics: topics.reversed(), groupId: "group-1") == key)
        #expect(IdempotencyKey.canonical(topics: topics, groupId: nil) != key)
        #expect(IdempotencyKey.canonical(topics: Array(topics.dropFirst(2)), groupId: "group-1") != key)
    }

    @Test func messageKeyIsTheSignature() {
        let signature = [UInt8](repeating: 5, count: 64)
        let request = NotifySilentRequest(topics: [], message: NotifyMessage(keyId: "", payload: [], signature: signature))
        #expect(request.idempotencyKey.bytes == signature)
    }
}
