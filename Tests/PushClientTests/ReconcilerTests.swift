import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushClient

@Suite struct ReconcilerTests {
    let me = Fixtures.account.accountID.string
    let signer = Fixtures.signer
    var key: String { signer.spaceKey }
    let clock = TestClock()
    let source = FakeSettingsSource()
    let lines = LogLines()

    func reconciler(_ node: FakeTransport) -> Reconciler {
        Reconciler(transport: node, accountID: me, source: source, tickInterval: nil, clock: clock, log: lines.log)
    }

    func refs(_ topics: [String], in spaceKey: String? = nil) -> Set<TopicRef> {
        Set(topics.map { TopicRef(space: spaceKey ?? key, topic: $0) })
    }

    @Test func firstPassReadsTheNodeAndSubscribesOnlyWhenTheSetDiffers() async throws {
        let node = FakeTransport(clock: clock)
        source.setSpace(signer, mode: nil, chats: [.init(chatId: "c1")])
        let r = reconciler(node)

        let first = await r.reconcile(.start)
        #expect(first.result == .subscribed(count: 2, added: 2, removed: 0))
        #expect(node.calls.map { "\($0.method) \($0.path)" } == ["GET /v1/subscriptions", "GET /v1/capabilities", "PUT /v1/subscriptions"])
        #expect(node.subscriptions == refs(["chats", me]))
        let put = try JSONDecoder().decode(WireTopics.self, from: Data(node.calls("PUT /v1/subscriptions")[0].body ?? []))
        #expect(NotifyInspection.topicsAreSigned(WireNotify(topics: put.topics)))

        // Nothing changed: a tick re-reads the node but writes nothing; a mode trigger does neither.
        #expect(await r.reconcile(.tick).result == .unchanged(count: 2))
        #expect(await r.reconcile(.modeChanged).result == .unchanged(count: 2))
        #expect(node.calls("PUT /v1/subscriptions").count == 1)
        #expect(node.calls("GET /v1/subscriptions").count == 2)
        #expect(await r.subscribeAllCount == 1)
        #expect(lines.all.filter { $0.hasPrefix("event=subscribe_all") } ==
                ["event=subscribe_all trigger=start topics=2 added=2 removed=0 requests=1"])
    }

    @Test func aModeChangeReplacesTheSetOnce() async throws {
        let node = FakeTransport(clock: clock)
        source.setSpace(signer, mode: .all, chats: [.init(chatId: "c1"), .init(chatId: "c2")])
        let r = reconciler(node)
        await r.reconcile(.start)

        source.setSpace(signer, mode: .all, chats: [.init(chatId: "c1", mode: NotifyMode.none), .init(chatId: "c2")])
        let pass = await r.reconcile(.modeChanged)
        let c2 = ChatTopics.groupId(chatId: "c2")
        #expect(node.subscriptions == refs(["chats/\(c2)", "chats/\(c2)/\(me)"]))
        #expect(pass.result == .subscribed(count: 2, added: 2, removed: 2))
        #expect(await r.reconcile(.modeChanged).result == .unchanged(count: 2))
        #expect(node.calls("PUT /v1/subscriptions").count == 2)
        #expect(await r.subscribeAllCount == 2)
    }

    @Test func aNodeAlreadyHoldingTheSetGetsNoWrite() async throws {
        let node = FakeTransport(clock: clock)
        node.setSubscriptions(refs([ChatTopics.chats, me]))
        source.setSpace(signer, mode: .all, chats: [])
        let r = reconciler(node)
        #expect(await r.reconcile(.start).result == .unchanged(count: 2))
        #expect(node.calls("PUT /v1/subscriptions").isEmpty)
    }

    @Test func unlistableChatsReuseTheLastKnownGoodModes() async throws {
        let node = FakeTransport(clock: clock)
        source.setSpace(signer, mode: .all, chats: [.init(chatId: "c1", mode: NotifyMode.none), .init(chatId: "c2")])
        let r = reconciler(node)
        await r.reconcile(.start)
        let held = node.subscriptions

        source.failChats(of: key)
        let pass = await r.reconcile(.tick)
        #expect(pass.result == .unchanged(count: 2))
        #expect(pass.fallbacks == [key: .lastKnownGood])
        #expect(node.subscriptions == held)
        #expect(!node.subscriptions.contains(TopicRef(space: key, topic: "chats")))
        #expect(lines.all.contains("event=reconcile_fallback space_key=\(key) using=last_known_good"))
    }

    @Test func unlistableChatsWithNothingRememberedLeaveTheSpaceAlone() async throws {
        let node = FakeTransport(clock: clock)
        let c2 = ChatTopics.groupId(chatId: "c2")
        node.setSubscriptions(refs(["chats/\(c2)", "chats/\(c2)/\(me)"]))
        source.setSpace(signer, mode: .all, chats: [])
        source.failChats(of: key)
        let r = reconciler(node)  // a fresh process: no last-known-good
        let pass = await r.reconcile(.start)
        #expect(pass.result == .unchanged(count: 2))
        #expect(pass.fallbacks == [key: .keptCurrent])
        #expect(node.calls("PUT /v1/subscriptions").isEmpty, "never falls back to bulk topics")
    }

    @Test func aSpaceListFailureChangesNothing() async throws {
        let node = FakeTransport(clock: clock)
        source.failSpaces()
        let r = reconciler(node)
        let pass = await r.reconcile(.start)
        #expect(pass.result == .failed(PushClientError(code: .sourceFailed, message: "spaces could not be listed")))
        #expect(node.calls("PUT /v1/subscriptions").isEmpty)
    }

    @Test func anUnreadableNodeIsReadAgainOnTheNextPass() async throws {
        let node = FakeTransport(clock: clock)
        node.script("GET /v1/subscriptions", [.networkError])
        source.setSpace(signer, mode: .mentions, chats: [])
        let r = reconciler(node)
        guard case .failed(let error) = await r.reconcile(.start).result else { Issue.record("expected failure"); return }
        #expect(error.code == .network)
        #expect(node.calls("PUT /v1/subscriptions").isEmpty)

        #expect(await r.reconcile(.spacesChanged).result == .subscribed(count: 1, added: 1, removed: 0))
        #expect(node.calls("GET /v1/subscriptions").count == 2)
    }

    @Test func aFailedWriteIsRetriedOnTheNextTrigger() async throws {
        let node = FakeTransport(clock: clock)
        node.script("PUT /v1/subscriptions", [.error(500, "internal")])
        source.setSpace(signer, mode: .all, chats: [])
        let r = reconciler(node)
        guard case .failed(let error) = await r.reconcile(.start).result else { Issue.record("expected failure"); return }
        #expect(error.status == 500)
        #expect(lines.all.contains("event=reconcile_failed trigger=start code=client.rejected api_code=internal"))
        #expect(await r.reconcile(.tokenChanged).result == .subscribed(count: 2, added: 2, removed: 0))
        #expect(node.calls("GET /v1/subscriptions").count == 2, "the node's set is read again after a failed write")
    }

    @Test func aLargeSetIsWrittenAsOnePutThenPosts() async throws {
        let node = FakeTransport(clock: clock, maxTopicsPerRequest: 2)
        source.setSpace(signer, mode: .all, chats: [.init(chatId: "c1", mode: .all), .init(chatId: "c2"), .init(chatId: "c3")])
        let r = reconciler(node)
        #expect(await r.reconcile(.start).result == .subscribed(count: 6, added: 6, removed: 0))
        #expect(node.calls.filter { $0.path == "/v1/subscriptions" }.map(\.method) == ["GET", "PUT", "POST", "POST"])
        #expect(node.subscriptions.count == 6)
        #expect(await r.reconcile(.tick).result == .unchanged(count: 6))
    }

    @Test func leavingEverySpaceClearsTheSet() async throws {
        let node = FakeTransport(clock: clock)
        source.setSpace(signer, mode: .all, chats: [])
        let r = reconciler(node)
        await r.reconcile(.start)
        source.removeSpace(key)
        #expect(await r.reconcile(.spacesChanged).result == .subscribed(count: 0, added: 0, removed: 2))
        #expect(node.subscriptions.isEmpty)
    }

    @Test func runPassesOnStartOnTriggersAndOnEachTick() async throws {
        let clock = TestClock(autoAdvance: false)
        let node = FakeTransport(clock: clock)
        source.setSpace(signer, mode: .all, chats: [])
        let (passes, sink) = AsyncStream.makeStream(of: Reconciler.Pass.self)
        let r = Reconciler(transport: node, accountID: me, source: source, tickInterval: .seconds(300),
                           clock: clock, log: lines.log, onPass: { sink.yield($0) })
        let running = Task { await r.run() }
        var seen = passes.makeAsyncIterator()

        #expect(await seen.next()?.trigger == .start)
        #expect(node.subscriptions == refs(["chats", me]))

        source.setSpace(signer, mode: .mentions, chats: [])
        r.trigger(.modeChanged)
        let changed = await seen.next()
        #expect(changed?.trigger == .modeChanged)
        #expect(changed?.result == .subscribed(count: 1, added: 0, removed: 1))

        await clock.waitForSleepers(1)
        clock.advance(by: .seconds(300))
        let tick = await seen.next()
        #expect(tick?.trigger == .tick)
        #expect(tick?.result == .unchanged(count: 1))

        r.stop()
        await running.value
        #expect(node.calls("PUT /v1/subscriptions").count == 2)
    }
}
