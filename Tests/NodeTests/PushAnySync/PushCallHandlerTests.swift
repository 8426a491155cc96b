import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushAnySync
@testable import PushService

/// `pushproto.Push` calls through the handler onto a real service: the codes and texts clients see.
@Suite struct PushCallHandlerTests {
    static let peerID = "12D3KooWHKcqHwfQrEbapSdHJ2GZEB6TACDSWnn9mekJtgcCUHNi"
    let fixture: ServiceFixture
    let me = account(1)
    let space = TestSpace(seed: 5)

    init() throws {
        fixture = try ServiceFixture(.init(limits: Limits(maxPayloadBytes: 200)))
    }

    func handler(_ service: PushService? = nil, limiter: RateLimiter = RateLimiter()) -> PushCallHandler {
        PushCallHandler(service: service ?? fixture.service, rateLimiter: limiter, caller: me.accountID, peerID: Self.peerID,
                        disabledPlatformToken: { _ in }, enabledPlatforms: Set(Platform.allCases))
    }

    func call(_ rpc: String, _ body: [UInt8] = [], on handler: PushCallHandler? = nil) -> DRPCReply {
        (handler ?? self.handler()).handle(rpc: "/pushproto.Push/" + rpc, body: body)
    }

    static let ok = DRPCReply.message([])
    static let invalidSignature = DRPCReply.error(code: 1201, message: "invalid signature")
    static let invalidTopicSignature = DRPCReply.error(code: 1202, message: "invalid topic signature")

    func forged(_ name: String) -> PushWire.Topic {
        PushWire.Topic(spaceKey: space.key.publicKey, topic: name, signature: TestSpace(seed: 6).topic(name).signature)
    }

    func wire(_ topic: Topic) -> PushWire.Topic {
        PushWire.Topic(spaceKey: topic.spaceKey.publicKey, topic: topic.topic, signature: topic.signature)
    }

    func message(signedBy key: AccountKey? = nil, size: Int = 60) -> PushWire.Message {
        let payload = [UInt8](repeating: 9, count: size)
        return PushWire.Message(keyId: String(repeating: "c", count: 64), payload: payload, signature: (key ?? me).sign(payload))
    }

    @Test func topicSignaturesAre1202WhateverTheirLength() {
        #expect(call("SubscribeAll", WireBody.topics([wire(space.topic("a")), forged("b")])) == Self.invalidTopicSignature)
        var short = wire(space.topic("a"))
        short.signature = Array(short.signature.prefix(10))
        #expect(call("Subscribe", WireBody.topics([short])) == Self.invalidTopicSignature)
        // Unsubscribe takes signed topics on this door (the HTTP route takes none).
        #expect(call("Unsubscribe", WireBody.topics([forged("a")])) == Self.invalidTopicSignature)
        #expect(call("Subscriptions") == .message([0x0a, 0x00]))
    }

    @Test func aSpaceKeyThatIsNot32BytesIsCode0WithTheReferenceText() {
        var topic = wire(space.topic("a"))
        topic.spaceKey.removeLast()
        #expect(call("Subscribe", WireBody.topics([topic]))
                == .error(code: 1200, message: "expect ed25519 public key data size to be 32"))
        #expect(call("CreateSpace", WireBody.space(key: topic.spaceKey, signature: []))
                == .error(code: 1200, message: "expect ed25519 public key data size to be 32"))
    }

    @Test func spaceSignaturesAre1201WhateverTheirLength() {
        let good = space.registration(for: me.accountID)
        #expect(call("CreateSpace", WireBody.space(key: space.key.publicKey, signature: good.signature)) == Self.ok)
        let forged = space.registration(for: account(2).accountID)
        #expect(call("RemoveSpace", WireBody.space(key: space.key.publicKey, signature: forged.signature)) == Self.invalidSignature)
        #expect(call("CreateSpace", WireBody.space(key: space.key.publicKey, signature: [1, 2, 3])) == Self.invalidSignature)
    }

    @Test func notifyRefusals() throws {
        let topic = wire(space.topic("chats"))
        #expect(call("Notify", WireBody.notify([topic], message(signedBy: account(2)))) == Self.invalidSignature)
        var short = message()
        short.signature.removeLast()
        #expect(call("Notify", WireBody.notify([topic], short)) == Self.invalidSignature)
        #expect(call("Notify", WireBody.notify([topic], nil)) == .error(code: 1200, message: "push: message is required"))
        #expect(call("Notify", WireBody.notify([topic], message(size: 201)))
                == .error(code: 1200, message: "the payload is over 200 bytes"))
        #expect(call("Notify", WireBody.notify([topic, forged("x")], message())) == Self.invalidTopicSignature)
        // No topic: Ok with nothing written, once the message's signature verified.
        #expect(call("Notify", WireBody.notify([], message(signedBy: account(2)))) == Self.invalidSignature)
        #expect(call("Notify", WireBody.notify([], message())) == Self.ok)
        #expect(fixture.service.statistics().notificationsAccepted == 0)
        #expect(call("Notify", WireBody.notify([topic], message())) == Self.ok)
        #expect(fixture.service.statistics().notificationsAccepted == 1)
    }

    @Test func silentNotifyVerifiesEveryTopicButKeepsOnlyTheCallersOwn() {
        let own = wire(space.topic(me.accountID.string))
        #expect(call("NotifySilent", WireBody.notify([own, forged("other")], message())) == Self.invalidTopicSignature)
        #expect(call("NotifySilent", WireBody.notify([wire(space.topic("other"))], message(signedBy: account(2))))
                == Self.invalidSignature)
        #expect(call("NotifySilent", WireBody.notify([wire(space.topic("other"))], message())) == Self.ok)
        #expect(call("NotifySilent", WireBody.notify([], nil)) == Self.ok)
        #expect(fixture.service.statistics().notificationsAccepted == 0)
        #expect(call("NotifySilent", WireBody.notify([own, wire(space.topic("other"))], nil)) == Self.ok)
        #expect(fixture.service.statistics().notificationsAccepted == 1)
    }

    @Test func wireRefusalsAndUnknownRPCs() {
        #expect(call("SetToken", WireBody.setToken(platform: 7, token: "t")) == .error(code: 1200, message: "unknown platform 7"))
        #expect(call("SetToken", WireBody.setToken(platform: 1, token: "")) == .error(code: 1200, message: "token must be 1–4096 characters"))
        #expect(call("Notify", [0x12, 0x08, 0x0a]) == .error(code: 1200, message: "cannot decode the request: truncated input"))
        #expect(call("Nope") == .error(code: 0, message: #"unknown rpc: "/pushproto.Push/Nope""#))
        #expect(handler().handle(rpc: "/other.Service/Notify", body: [])
                == .error(code: 0, message: #"unknown rpc: "/other.Service/Notify""#))
    }

    @Test func rateClassesAreTheOperations() {
        let limiter = RateLimiter(policy: RateLimitPolicy(registrationPerMinute: 1, registrationBurst: 1, notifyPerSecond: 1, notifyBurst: 1))
        let door = handler(limiter: limiter)
        #expect(call("Subscriptions", on: door) == .message([0x0a, 0x00]))
        #expect(call("SubscribeAll", WireBody.topics([]), on: door) == .error(code: 700, message: "rate limit exceeded"))
        #expect(call("Notify", WireBody.notify([], message()), on: door) == Self.ok)
        #expect(call("NotifySilent", WireBody.notify([], nil), on: door) == .error(code: 700, message: "rate limit exceeded"))
    }

    @Test func aStoreFailureIs1200NamingTheStorageFaultOnly() {
        let door = handler(PushService(store: FailingStore(), configuration: .init()))
        let replies = [
            call("Subscriptions", on: door),
            call("SetToken", WireBody.setToken(platform: 1, token: "fcm-token"), on: door),
            call("RevokeToken", on: door),
            call("Subscribe", WireBody.topics([wire(space.topic("a"))]), on: door),
            call("Notify", WireBody.notify([wire(space.topic("a"))], message()), on: door),
        ]
        for reply in replies {
            #expect(reply == .error(code: 1200, message: "unexpected error: storage unavailable"))
            if case .error(_, let text) = reply { #expect(!text.contains(LeakyStoreError.secret)) }
        }
    }
}

/// pushproto request bodies (Spec/anysync-wire.md §9), written with the door's own protobuf helpers.
enum WireBody {
    static func topicList(_ topics: [PushWire.Topic]) -> [UInt8] {
        var list: [UInt8] = []
        for topic in topics {
            var t: [UInt8] = []
            Protobuf.appendBytes(1, topic.spaceKey, to: &t)
            Protobuf.appendBytes(2, Array(topic.topic.utf8), to: &t)
            Protobuf.appendBytes(3, topic.signature, to: &t)
            Protobuf.appendBytes(1, t, to: &list)
        }
        return list
    }

    static func topics(_ topics: [PushWire.Topic]) -> [UInt8] {
        var out: [UInt8] = []
        Protobuf.appendBytes(1, topicList(topics), to: &out)
        return out
    }

    static func notify(_ topics: [PushWire.Topic], _ message: PushWire.Message?, groupId: String = "") -> [UInt8] {
        var out: [UInt8] = []
        Protobuf.appendBytes(1, topicList(topics), to: &out)
        if let message {
            var m: [UInt8] = []
            Protobuf.appendBytes(1, Array(message.keyId.utf8), to: &m)
            Protobuf.appendBytes(2, message.payload, to: &m)
            Protobuf.appendBytes(3, message.signature, to: &m)
            Protobuf.appendBytes(2, m, to: &out)
        }
        if !groupId.isEmpty { Protobuf.appendBytes(3, Array(groupId.utf8), to: &out) }
        return out
    }

    static func space(key: [UInt8], signature: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        Protobuf.appendBytes(1, key, to: &out)
        Protobuf.appendBytes(2, signature, to: &out)
        return out
    }

    static func setToken(platform: UInt64, token: String) -> [UInt8] {
        var out: [UInt8] = []
        Protobuf.appendVarint(1, platform, to: &out)
        Protobuf.appendBytes(2, Array(token.utf8), to: &out)
        return out
    }
}
