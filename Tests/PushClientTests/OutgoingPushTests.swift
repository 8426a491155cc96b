import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushClient

/// The generic send: a chat server's own bytes, sealed as they are, with kind, groupId, ttl and
/// replaces (`NotifyBuilder.requests(for:in:…)` and `PushSender.send(_:in:)`).
@Suite struct OutgoingPushTests {
    static let space = try! PushSpaceKeys(pushKeySeed: Hex.decode(AnyCompatVector.spacePushSeed),
                                          payloadKey: Hex.decode(AnyCompatVector.encKey))
    static let bytes = Array(#"{"contract":"CHAT_MESSAGE","v":"1","messageId":"m-81","preview":"hi é世"}"#.utf8)

    func body(_ push: OutgoingPush, limits: Limits = .default) throws -> (path: String, notify: WireNotify) {
        let requests = try NotifyBuilder.requests(for: push, in: Self.space, account: Fixtures.account, limits: limits)
        try #require(requests.count == 1)
        return (requests[0].path, try JSONDecoder().decode(WireNotify.self, from: Data(requests[0].body)))
    }

    /// The device's view: what `open(data:signedBy:)` gives for this Notify.
    func opened(_ notify: WireNotify) throws -> [UInt8]? {
        guard case .opened(let plaintext) = try Fixtures.receiver().open(data: NotifyInspection.dataKeys(notify),
                                                                           signedBy: Fixtures.account.accountID) else { return nil }
        return plaintext
    }

    @Test func thePayloadIsSealedByteForByteAndEveryOptionIsOnTheWire() throws {
        let push = OutgoingPush(.notify(.call), topics: ["user/mary", "user/bob"], payload: Self.bytes, groupId: "call/k-55",
                                ttl: 45)
        let (path, notify) = try body(push)
        #expect(path == "/v1/notify")
        #expect(notify.topics.map(\.topic) == ["user/mary", "user/bob"])
        #expect(notify.topics.allSatisfy { $0.spaceKey == AnyCompatVector.spaceKey })
        #expect(NotifyInspection.topicsAreSigned(notify))
        #expect((notify.kind, notify.groupId, notify.ttl, notify.replaces) == ("call", "call/k-55", 45, nil))
        #expect(notify.message?.keyId == AnyCompatVector.encKeyId)
        #expect(NotifyInspection.sealedSize(notify) == Self.bytes.count + 28)
        #expect(try opened(notify) == Self.bytes, "no envelope: the plaintext is the caller's bytes")
    }

    @Test func aClearAndAReplacingPushCarryTheirGroup() throws {
        let clear = try body(OutgoingPush(.notify(.clear), topics: ["user/mary"], payload: Self.bytes, groupId: "call/k-55")).notify
        #expect((clear.kind, clear.groupId, clear.replaces, clear.ttl) == ("clear", "call/k-55", nil, nil))
        let replacing = try body(OutgoingPush(.notify(.silent), topics: ["user/mary"], groupId: "read/c-12", ttl: 86_400,
                                              replaces: true)).notify
        #expect((replacing.kind, replacing.replaces, replacing.ttl) == ("silent", true, 86_400))
    }

    @Test func aWakeHasNoMessage() throws {
        let notify = try body(OutgoingPush(.notify(.message), topics: ["user/mary"], groupId: "c-12")).notify
        #expect(notify.message == nil)
        #expect(try Fixtures.receiver().open(data: NotifyInspection.dataKeys(notify), signedBy: Fixtures.account.accountID)
            == .noMessage)
    }

    @Test func ownDevicesGoesToTheSilentRouteSkippingTheSendingDevice() throws {
        let me = Fixtures.account.accountID.string
        let (path, notify) = try body(OutgoingPush(.ownDevices(skipDevice: "d1"), topics: [me], payload: Self.bytes,
                                                   groupId: "c-12", ttl: 86_400, replaces: true))
        #expect(path == "/v1/notify/silent")
        #expect((notify.deviceId, notify.replaces, notify.ttl, notify.kind) == ("d1", true, 86_400, nil))
        #expect(notify.topics.map(\.topic) == [me])
    }

    @Test func aPushTheNodeWouldRefuseFailsBeforeItIsSent() {
        #expect(throws: PushClientError(code: .invalidArgument,
                                        message: "groupId is required to replace (replaces, or kind clear) (groupId)")) {
            try NotifyBuilder.requests(for: OutgoingPush(.notify(.clear), topics: ["t"]), in: Self.space, account: Fixtures.account)
        }
        #expect(throws: PushClientError.self) {
            try NotifyBuilder.requests(for: OutgoingPush(topics: ["t"], replaces: true), in: Self.space, account: Fixtures.account)
        }
        #expect(throws: PushClientError(code: .invalidArgument, message: "topics must not be empty (topics)")) {
            try NotifyBuilder.requests(for: OutgoingPush(topics: []), in: Self.space, account: Fixtures.account)
        }
    }

    /// The caller's bytes are never cut: over the budget the push fails with the sizes.
    @Test func aPayloadOverTheBudgetIsRefusedNotShrunk() throws {
        let fits = [UInt8](repeating: 0x41, count: ProviderPayloadLimit.everyProvider - 28)
        #expect(try body(OutgoingPush(topics: ["t"], payload: fits)).notify.message != nil)
        #expect(throws: PushClientError(code: .payloadTooLarge,
                                        message: "the payload seals to \(fits.count + 29) bytes, over the limit of \(ProviderPayloadLimit.everyProvider)")) {
            try NotifyBuilder.requests(for: OutgoingPush(topics: ["t"], payload: fits + [0x41]), in: Self.space,
                                       account: Fixtures.account)
        }
    }

    @Test func manyTopicsAreSplitAndEachRequestIsSealedOnItsOwn() throws {
        let topics = (0..<5).map { "user/\($0)" }
        let requests = try NotifyBuilder.requests(for: OutgoingPush(topics: topics, payload: Self.bytes, groupId: "g"),
                                                  in: Self.space, account: Fixtures.account,
                                                  limits: Limits(maxTopicsPerRequest: 2))
        let notifies = try requests.map { try JSONDecoder().decode(WireNotify.self, from: Data($0.body)) }
        #expect(notifies.map { $0.topics.map(\.topic) } == [["user/0", "user/1"], ["user/2", "user/3"], ["user/4"]])
        #expect(Set(notifies.compactMap { $0.message?.signature }).count == 3)
        #expect(try notifies.map { try opened($0) } == Array(repeating: Self.bytes, count: 3))
    }

    @Test func theSenderQueuesRetriesAndCountsAGenericPush() async throws {
        let clock = TestClock()
        let node = FakeTransport(clock: clock)
        node.script("POST /v1/notify", [.status(503), .json(#"{"id":"n1","duplicate":false,"queued":2}"#)])
        let sender = PushSender(transport: node, account: Fixtures.account, clock: clock)
        #expect(sender.send(OutgoingPush(.notify(.clear), topics: ["user/mary"], payload: Self.bytes, groupId: "call/k-55"),
                            in: Self.space))
        #expect(sender.send(OutgoingPush(.notify(.clear), topics: ["user/mary"]), in: Self.space), "queued, fails when planned")
        await sender.flush()
        let tries = node.calls("POST /v1/notify")
        #expect(tries.count == 2)
        #expect(tries[0].body == tries[1].body, "a retry resends the identical bytes")
        #expect(try opened(NotifyInspection.body(tries[0])) == Self.bytes)
        #expect(sender.counters.sent == 1)
        #expect(sender.counters.failed == ["invalid_push": 1])
        await sender.shutdown()
    }
}
