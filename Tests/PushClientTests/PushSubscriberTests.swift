import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushClient

@Suite struct PushSubscriberTests {
    let clock = TestClock()
    let me = Fixtures.account.accountID.string

    func subscriber(_ node: FakeTransport, reconciler: Reconciler? = nil) -> PushSubscriber {
        PushSubscriber(transport: node, accountID: me, reconciler: reconciler, clock: clock)
    }

    @Test func setTokenSendsTheRegistrationAndReturnsItsId() async throws {
        let node = FakeTransport(clock: clock)
        let id = try await subscriber(node).setToken(.init(deviceId: "dev1", platform: .webpush, token: "https://push.example/x",
                                                           p256dh: "BPkA", auth: "AAECAwQFBgcICQoLDA0ODw"))
        #expect(id == "0123456789abcdef0123456789abcdef")
        let body = node.calls("POST /v1/tokens")[0].json
        #expect(body["deviceId"] as? String == "dev1")
        #expect(body["platform"] as? String == "webpush")
        #expect(body["token"] as? String == "https://push.example/x")
        #expect(body["p256dh"] as? String == "BPkA")
        #expect(body["auth"] as? String == "AAECAwQFBgcICQoLDA0ODw")
        #expect(body["environment"] == nil)
    }

    @Test func setTokenReportsTheNodesRefusal() async throws {
        let node = FakeTransport(clock: clock)
        node.script("POST /v1/tokens", [.error(409, "platform.disabled")])
        await #expect(throws: PushClientError(code: .rejected, message: "test", status: 409, apiCode: .platformDisabled)) {
            try await subscriber(node).setToken(.init(deviceId: "d", platform: .apns, token: "ab"))
        }
    }

    @Test func setTokenTriggersTheReconciler() async throws {
        let node = FakeTransport(clock: clock)
        let source = FakeSettingsSource()
        source.setSpace(Fixtures.signer, mode: .all, chats: [])
        let (passes, sink) = AsyncStream.makeStream(of: Reconciler.Pass.self)
        let r = Reconciler(transport: node, accountID: me, source: source, tickInterval: nil, clock: clock, onPass: { sink.yield($0) })
        let running = Task { await r.run() }
        var seen = passes.makeAsyncIterator()
        #expect(await seen.next()?.trigger == .start)
        try await subscriber(node, reconciler: r).setToken(.init(deviceId: "d", platform: .android, token: "fcm"))
        #expect(await seen.next()?.trigger == .tokenChanged)
        r.stop()
        await running.value
    }

    @Test func revokeConfirmedByTheNode() async {
        let node = FakeTransport(clock: clock)
        #expect(await subscriber(node).revokeToken(deviceId: "dev1") == .revoked)
        #expect(node.calls("POST /v1/tokens/revoke")[0].json as NSDictionary == ["deviceId": "dev1"] as NSDictionary)
    }

    @Test func revokeByTokenSendsTokenAndPlatform() async {
        let node = FakeTransport(clock: clock)
        #expect(await subscriber(node).revokeToken(token: "fcm", platform: .android) == .revoked)
        #expect(node.calls("POST /v1/tokens/revoke")[0].json as NSDictionary == ["token": "fcm", "platform": "android"] as NSDictionary)
    }

    /// Logout never waits on an unreachable node: the revoke returns at once and keeps trying.
    @Test func revokeWithTheNodeDownReturnsAtOnceAndRetriesInTheBackground() async {
        let node = FakeTransport(clock: clock)
        node.script("POST /v1/tokens/revoke", [.networkError, .networkError, .status(503)])
        let subscriber = subscriber(node)
        #expect(await subscriber.revokeToken(deviceId: "dev1") == .retryingInBackground)
        await subscriber.waitForRevocations()
        let tries = node.calls("POST /v1/tokens/revoke")
        #expect(tries.count == 4)
        #expect(Set(tries.map { $0.body ?? [] }).count == 1)
        #expect(clock.slept == Array(repeating: .seconds(10), count: 3))
    }

    @Test func revokeRefusedIsAbandoned() async {
        let node = FakeTransport(clock: clock)
        node.script("POST /v1/tokens/revoke", [.error(401, "auth.expired")])
        let result = await subscriber(node).revokeToken(deviceId: "dev1")
        #expect(result == .abandoned(PushClientError(code: .rejected, message: "revoke refused", status: 401, apiCode: .authExpired)))
    }

    @Test func createSpaceSignsTheAccountIdWithTheSpaceKey() async throws {
        let node = FakeTransport(clock: clock)
        let subscriber = PushSubscriber(transport: node, accountID: AnyCompatVector.accountId, clock: clock)
        try await subscriber.createSpace(Fixtures.signer)
        try await subscriber.removeSpace(Fixtures.signer)
        let create = node.calls("POST /v1/spaces")[0].json
        #expect(create["spaceKey"] as? String == AnyCompatVector.spaceKey)
        #expect(create["signature"] as? String == AnyCompatVector.spaceRegistrationSignature)
        #expect(node.calls("POST /v1/spaces/remove")[0].body == node.calls("POST /v1/spaces")[0].body)
    }

    @Test func subscriptionsListsTheNodesSet() async throws {
        let node = FakeTransport(clock: clock)
        let s = AnyCompatVector.spaceKey
        node.setSubscriptions([TopicRef(space: s, topic: "chats"), TopicRef(space: s, topic: "A")])
        #expect(try await subscriber(node).subscriptions() == [TopicRef(space: s, topic: "A"), TopicRef(space: s, topic: "chats")])
    }

    @Test func webPushKeysThatAreNotBase64URLAreRefusedBeforeSending() async throws {
        let node = FakeTransport(clock: clock)
        await #expect(throws: PushClientError.self) {
            try await subscriber(node).setToken(.init(deviceId: "d", platform: .webpush, token: "https://x", p256dh: "a+b/", auth: "x"))
        }
        #expect(node.calls("POST /v1/tokens").isEmpty)
    }
}
