import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushClient

@Suite struct PushSenderTests {
    let clock = TestClock()

    func sender(_ transport: FakeTransport, capacity: Int = 100, deviceId: String? = "dev1") -> PushSender {
        PushSender(transport: transport, account: Fixtures.account,
                   configuration: .init(queueCapacity: capacity, deviceId: deviceId), clock: clock)
    }

    static let message = OutgoingMessage(id: "msg1", text: "hi é世", senderName: "alice")

    @Test func messageGoesOutAsASignedSealedNotifyOnTheWholeSuperset() async throws {
        let node = FakeTransport(clock: clock)
        let sender = sender(node)
        #expect(sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: Self.message, mentions: [Fixtures.bob]))
        await sender.flush()

        let calls = node.calls
        #expect(calls.map { "\($0.method) \($0.path)" } == ["GET /v1/capabilities", "POST /v1/notify"])
        let notify = try NotifyInspection.body(calls[1])
        let sha = ChatTopics.groupId(chatId: AnyCompatVector.chatId)
        #expect(notify.topics.map(\.topic) == ["chats", AnyCompatVector.topic, "chats/\(sha)/\(Fixtures.bob)", Fixtures.bob])
        #expect(notify.topics.allSatisfy { $0.spaceKey == AnyCompatVector.spaceKey })
        #expect(NotifyInspection.topicsAreSigned(notify))
        #expect(notify.groupId == sha)
        #expect(notify.kind == "message")
        #expect(notify.ttl == nil)
        #expect(notify.deviceId == nil)
        #expect(notify.message?.keyId == AnyCompatVector.encKeyId)

        let payload = try NotifyInspection.open(notify)
        #expect(payload == PushPayload(spaceId: "spc1", senderId: AnyCompatVector.accountId, newMessage: .init(
            chatId: AnyCompatVector.chatId, msgId: "msg1", spaceName: "Project", chatName: "general",
            senderName: "alice", text: "hi é世")))
        #expect(sender.counters.sent == 1)
        #expect(sender.counters.accepted == 1)
    }

    @Test func retriesSixTimesTenSecondsApartResendingIdenticalBytes() async throws {
        let node = FakeTransport(clock: clock)
        node.script("POST /v1/notify", [.networkError, .status(500), .status(502), .networkError, .status(503), .networkError])
        let sender = sender(node)
        sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: Self.message)
        await sender.flush()

        let tries = node.calls("POST /v1/notify")
        #expect(tries.count == 6)
        #expect(Set(tries.map { $0.body ?? [] }).count == 1, "every retry resends the identical body")
        let start = tries[0].at
        #expect(tries.map { $0.at.timeIntervalSince(start) } == [0, 10, 20, 30, 40, 50])
        #expect(sender.counters.failed == ["retries_exhausted": 1])
        #expect(sender.counters.retried == 5)
        #expect(sender.counters.sent == 0)
    }

    @Test func aRetryTheNodeAlreadyHadIsCountedAsDuplicate() async throws {
        let node = FakeTransport(clock: clock)
        node.script("POST /v1/notify", [.status(503), .json(#"{"id":"n1","duplicate":true}"#)])
        let sender = sender(node)
        sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: Self.message)
        await sender.flush()
        let tries = node.calls("POST /v1/notify")
        #expect(tries.count == 2)
        #expect(tries[0].body == tries[1].body)
        #expect(sender.counters.duplicate == 1)
        #expect(sender.counters.sent == 0)
    }

    @Test func stopsAtOnceOnA4xx() async throws {
        let node = FakeTransport(clock: clock)
        node.script("POST /v1/notify", [.error(400, "topic.signature_invalid")])
        let sender = sender(node)
        sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: Self.message)
        await sender.flush()
        #expect(node.calls("POST /v1/notify").count == 1)
        #expect(sender.counters.failed == ["rejected": 1])
        #expect(clock.slept.isEmpty)
    }

    @Test func honoursRetryAfterSecondsAndDates() async throws {
        let node = FakeTransport(clock: clock)
        // The second answer's date is 7 s after the moment it is read (virtual 3 s in): 10 s total.
        let date = "Tue, 14 Nov 2023 22:13:30 GMT"  // epoch + 10 s
        node.script("POST /v1/notify", [.error(429, "rate_limited", headers: ["Retry-After": "3"]),
                                         .error(429, "rate_limited", headers: ["Retry-After": date]), .ok])
        let sender = sender(node)
        sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: Self.message)
        await sender.flush()
        let tries = node.calls("POST /v1/notify")
        #expect(tries.map { $0.at.timeIntervalSince(TestClock.epoch) } == [0, 3, 10])
        #expect(sender.counters.sent == 1)
    }

    @Test func aFullQueueDropsAndCountsInsteadOfGrowing() async throws {
        let node = FakeTransport(clock: clock)
        node.hold()  // the worker's first request waits: nothing finishes
        let sender = sender(node, capacity: 3)
        let accepted = (0..<5).map { i in
            sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat,
                               message: OutgoingMessage(id: "m\(i)", text: "t\(i)"))
        }
        #expect(accepted == [true, true, true, false, false])
        #expect(sender.counters.dropped == 2)
        node.release()
        await sender.flush()
        #expect(sender.counters.sent == 3)
        #expect(node.calls("POST /v1/notify").count == 3)
        // Room again once drained.
        #expect(sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: Self.message))
        await sender.flush()
        #expect(sender.counters.sent == 4)
    }

    @Test func readSendsASilentNotifyToTheOwnIdentityTopicSkippingThisDevice() async throws {
        let node = FakeTransport(clock: clock)
        let sender = sender(node)
        sender.chatRead(space: Fixtures.space, chat: Fixtures.chat)
        sender.chatRead(space: Fixtures.space, chat: Fixtures.chat, skipDevice: "tablet")
        await sender.flush()
        let reads = try node.calls("POST /v1/notify/silent").map(NotifyInspection.body)
        #expect(reads.count == 2)
        #expect(reads[0].topics.map(\.topic) == [AnyCompatVector.accountId])
        #expect(NotifyInspection.topicsAreSigned(reads[0]))
        #expect(reads[0].groupId == ChatTopics.groupId(chatId: AnyCompatVector.chatId))
        #expect(reads[0].deviceId == "dev1")
        #expect(reads[1].deviceId == "tablet")
        #expect(reads[0].kind == nil)
        #expect(node.calls("POST /v1/notify").isEmpty)
    }

    @Test func twoReadsOfOneChatAreTwoDistinctRequestsCarryingASilentReadMarker() async throws {
        let node = FakeTransport(clock: clock)
        let sender = sender(node)
        sender.chatRead(space: Fixtures.space, chat: Fixtures.chat)
        sender.chatRead(space: Fixtures.space, chat: Fixtures.chat)
        await sender.flush()
        let reads = try node.calls("POST /v1/notify/silent").map(NotifyInspection.body)
        #expect(reads.count == 2)
        // Same topics and groupId: without a message the node's idempotency (canonical topics +
        // groupId, 24 h) would take the second for a duplicate. The sealed markers differ.
        #expect(reads[0].topics == reads[1].topics)
        #expect(reads[0].groupId == reads[1].groupId)
        let signatures = reads.compactMap { $0.message?.signature }
        #expect(signatures.count == 2 && signatures[0] != signatures[1])
        let marker = try NotifyInspection.open(reads[0])
        #expect(marker.type == PushPayload.chatRead)
        #expect(marker.type != PushPayload.chatMessage, "never the loud type")
        #expect(marker.senderId == AnyCompatVector.accountId)
        #expect(marker.newMessage?.chatId == AnyCompatVector.chatId)
        #expect(marker.newMessage?.text == "")
    }

    @Test func editPublishesOnlyTheNewMentionTopics() async throws {
        let node = FakeTransport(clock: clock)
        let sender = sender(node)
        #expect(sender.chatEdit(space: Fixtures.space, chat: Fixtures.chat, message: Self.message, newMentions: []))
        sender.chatEdit(space: Fixtures.space, chat: Fixtures.chat, message: Self.message, newMentions: [Fixtures.carol])
        await sender.flush()
        let edits = try node.calls("POST /v1/notify").map(NotifyInspection.body)
        #expect(edits.count == 1)
        let sha = ChatTopics.groupId(chatId: AnyCompatVector.chatId)
        #expect(edits[0].topics.map(\.topic) == ["chats/\(sha)/\(Fixtures.carol)", Fixtures.carol])
        #expect(try NotifyInspection.open(edits[0]).type == PushPayload.chatMessage)
        #expect(sender.counters.accepted == 1)
    }

    @Test func callRingIsKindCallWithTheRingWindowAsTTL() async throws {
        let node = FakeTransport(clock: clock)
        let sender = sender(node)
        let call = OutgoingMessage(id: "call1", text: "", senderName: "alice")
        sender.callRing(space: Fixtures.space, chat: Fixtures.chat, call: call, invitees: [Fixtures.bob])
        sender.callRing(space: Fixtures.space, chat: Fixtures.chat, call: call, invitees: [Fixtures.bob], ringWindow: .milliseconds(29_500))
        await sender.flush()
        let rings = try node.calls("POST /v1/notify").map(NotifyInspection.body)
        #expect(rings.map(\.kind) == ["call", "call"])
        #expect(rings.map(\.ttl) == [45, 30])
        let payload = try NotifyInspection.open(rings[0])
        #expect(payload.type == PushPayload.callRing)
        #expect(payload.newMessage?.msgId == "call1")
        #expect(rings[0].topics.map(\.topic).contains(Fixtures.bob))
    }

    @Test func capabilitiesAreFetchedOnceAndTheirLimitShrinksThePayload() async throws {
        let node = FakeTransport(clock: clock, maxPayloadBytes: 400)
        let sender = sender(node)
        let long = OutgoingMessage(id: "m", text: String(repeating: "Grüße ", count: 200), senderName: "alice")
        for _ in 0..<3 { sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: long) }
        await sender.flush()
        #expect(node.calls("GET /v1/capabilities").count == 1)
        let sent = try node.calls("POST /v1/notify").map(NotifyInspection.body)
        #expect(sent.count == 3)
        for notify in sent {
            #expect(NotifyInspection.sealedSize(notify) <= 400)
            #expect(NotifyInspection.sealedSize(notify) > 300, "shortened to fit, not emptied")
            let text = try #require(try NotifyInspection.open(notify).newMessage?.text)
            #expect(text.hasSuffix("..."))
            #expect(long.text.hasPrefix(String(text.dropLast(3))))
        }
        #expect(sender.counters.shrunk == 3)
    }

    @Test func unreachableCapabilitiesFallBackToTheDefaultLimits() async throws {
        let node = FakeTransport(clock: clock)
        node.script("GET /v1/capabilities", [.networkError])
        let sender = sender(node)
        let long = OutgoingMessage(id: "m", text: String(repeating: "x", count: 5000))
        sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: long)
        sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: long)
        await sender.flush()
        #expect(node.calls("GET /v1/capabilities").count == 1, "not asked again within a minute")
        let sent = try node.calls("POST /v1/notify").map(NotifyInspection.body)
        #expect(sent.count == 2)
        #expect(sent.allSatisfy { NotifyInspection.sealedSize($0) <= 2816 })
        #expect(try NotifyInspection.open(sent[0]).newMessage?.text == String(repeating: "x", count: 1021) + "...")
    }

    @Test func payloadTooLargeRefreshesTheLimitsAndPlansOnceMore() async throws {
        let node = FakeTransport(clock: clock)
        node.script("GET /v1/capabilities", [.json(#"{"limits":{"maxPayloadBytes":2816}}"#),
                                              .json(#"{"limits":{"maxPayloadBytes":300}}"#)])
        node.script("POST /v1/notify", [.error(413, "payload.too_large")])
        let sender = sender(node)
        sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat,
                           message: OutgoingMessage(id: "m", text: String(repeating: "y", count: 600)))
        await sender.flush()
        #expect(node.calls.map { "\($0.method) \($0.path)" } ==
                ["GET /v1/capabilities", "POST /v1/notify", "GET /v1/capabilities", "POST /v1/notify"])
        let last = try NotifyInspection.body(node.calls("POST /v1/notify")[1])
        #expect(NotifyInspection.sealedSize(last) <= 300)
        #expect(sender.counters.sent == 1)
        #expect(sender.counters.failed.isEmpty)
    }

    @Test func moreTopicsThanTheNodeTakesAreSplitAndSealedApart() async throws {
        let node = FakeTransport(clock: clock, maxTopicsPerRequest: 4)
        let sender = sender(node)
        sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: Self.message,
                           mentions: [Fixtures.bob, Fixtures.carol, "AThird"])
        await sender.flush()
        let parts = try node.calls("POST /v1/notify").map(NotifyInspection.body)
        #expect(parts.map(\.topics.count) == [4, 4])
        #expect(Set(parts.flatMap { $0.topics.map(\.topic) }).count == 8)
        #expect(parts[0].message?.signature != parts[1].message?.signature, "distinct for the node's idempotency")
        #expect(try NotifyInspection.open(parts[0]) == NotifyInspection.open(parts[1]))
        #expect(sender.counters.sent == 2)
    }

    @Test func shutdownDrainsThenRefusesNewCalls() async throws {
        let node = FakeTransport(clock: clock)
        node.script("POST /v1/notify", [.status(503)])
        let sender = sender(node)
        sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: Self.message)
        await sender.shutdown()
        #expect(sender.counters.sent == 1)
        #expect(!sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: Self.message))
        #expect(sender.counters.dropped == 1)
    }

    @Test func callsReturnWithoutWaitingForTheNode() async throws {
        let node = FakeTransport(clock: clock)
        node.hold()
        let sender = sender(node)
        // The node never answers while held; the calls still return at once.
        for i in 0..<10 { #expect(sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: OutgoingMessage(id: "m\(i)", text: "x"))) }
        #expect(sender.counters.sent == 0)
        node.release()
        await sender.flush()
        #expect(sender.counters.sent == 10)
    }
}
