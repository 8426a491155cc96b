import PushCrypto
import PushProtocol

/// Keeps the topics the node holds for this account equal to what its notify modes ask for.
///
/// A pass: read the node's set (`GET /v1/subscriptions`) on start, on each tick and whenever it is
/// unknown; list spaces and chats from the `NotifySettingsSource`; compute
/// `SubscriptionPlan.desiredTopics`; and only when that differs from the node's set, replace it
/// (`PUT /v1/subscriptions`, SubscribeAll — split into a PUT and then POSTs when it has more than
/// `maxTopicsPerRequest` topics). Each SubscribeAll is logged (`event=subscribe_all`).
///
/// `run()` makes a pass on start, on every `trigger(_:)` (mode, token and space-list changes) and on
/// a tick (5 minutes by default; `nil` for none, tests call `reconcile(_:)` or `trigger(.tick)`).
/// Passes never overlap.
public actor Reconciler {
    public enum Trigger: String, Sendable, Equatable {
        case start
        case modeChanged = "mode_changed"
        case tokenChanged = "token_changed"
        case spacesChanged = "spaces_changed"
        case tick
    }

    /// What one pass did.
    public struct Pass: Sendable, Equatable {
        public enum Result: Sendable, Equatable {
            /// The node already held the desired set (`count` topics); nothing sent.
            case unchanged(count: Int)
            /// SubscribeAll sent: `count` topics now, `added`/`removed` against the node's old set.
            case subscribed(count: Int, added: Int, removed: Int)
            /// Nothing changed on the node; the next trigger tries again.
            case failed(PushClientError)
        }

        public var trigger: Trigger
        public var result: Result
        /// Spaces not decided from a fresh listing, by space key.
        public var fallbacks: [String: SubscriptionPlan.Source]
    }

    private let transport: any NodeTransport
    private let me: String
    private let source: any NotifySettingsSource
    private let capabilities: CapabilitiesCache
    private let tickInterval: Duration?
    private let clock: any PushClock
    private let log: PushLog
    private let onPass: (@Sendable (Pass) -> Void)?
    private let triggers: AsyncStream<Trigger>
    private let continuation: AsyncStream<Trigger>.Continuation

    /// The node's set as last read or written; nil when unknown.
    public private(set) var nodeTopics: Set<TopicRef>?
    /// Chat listings remembered per space key, for passes where a space cannot be listed.
    public private(set) var lastKnownGood: [String: [ChatNotifySetting]] = [:]
    /// SubscribeAll calls made.
    public private(set) var subscribeAllCount = 0

    private var busy = false
    private var waiting: [CheckedContinuation<Void, Never>] = []

    /// - Parameters:
    ///   - accountID: the account's id (`<me>` in topics).
    ///   - tickInterval: the periodic pass (any: 5 minutes); nil for none.
    ///   - onPass: called after every pass (observers, tests).
    public init(transport: any NodeTransport, accountID: String, source: any NotifySettingsSource,
                capabilities: CapabilitiesCache? = nil, tickInterval: Duration? = .seconds(300),
                clock: any PushClock = SystemPushClock(), log: PushLog = .none,
                onPass: (@Sendable (Pass) -> Void)? = nil) {
        self.transport = transport
        self.me = accountID
        self.source = source
        self.capabilities = capabilities ?? CapabilitiesCache(transport: transport, clock: clock)
        self.tickInterval = tickInterval
        self.clock = clock
        self.log = log
        self.onPass = onPass
        (triggers, continuation) = AsyncStream.makeStream(of: Trigger.self, bufferingPolicy: .bufferingNewest(16))
    }

    /// Asks `run()` for a pass; returns at once.
    public nonisolated func trigger(_ trigger: Trigger) { continuation.yield(trigger) }

    /// Ends `run()` after the pass in progress.
    public nonisolated func stop() { continuation.finish() }

    /// Makes a pass on start, then one per trigger and tick, until `stop()`.
    public func run() async {
        continuation.yield(.start)
        let ticker: Task<Void, Never>? = tickInterval.map { interval in
            Task { [clock, continuation] in
                while true {
                    do { try await clock.sleep(for: interval) } catch { return }
                    if case .terminated = continuation.yield(.tick) { return }
                }
            }
        }
        for await trigger in triggers { _ = await reconcile(trigger) }
        ticker?.cancel()
    }

    /// Makes one pass now (after any pass in progress) and returns what it did.
    @discardableResult
    public func reconcile(_ trigger: Trigger) async -> Pass {
        while busy { await withCheckedContinuation { waiting.append($0) } }
        busy = true
        defer {
            busy = false
            if !waiting.isEmpty { waiting.removeFirst().resume() }
        }
        var fallbacks: [String: SubscriptionPlan.Source] = [:]
        let result: Pass.Result
        do {
            result = try await pass(trigger, fallbacks: &fallbacks)
        } catch {
            result = .failed(error)
            log.event("reconcile_failed", [("trigger", trigger.rawValue), ("code", error.code.rawValue)]
                      + (error.apiCode.map { [("api_code", $0.rawValue)] } ?? []))
        }
        let done = Pass(trigger: trigger, result: result, fallbacks: fallbacks)
        onPass?(done)
        return done
    }

    private func pass(_ trigger: Trigger, fallbacks: inout [String: SubscriptionPlan.Source]) async throws(PushClientError) -> Pass.Result {
        if trigger == .start || trigger == .tick || nodeTopics == nil {
            do {
                nodeTopics = try await readNodeTopics()
            } catch {
                guard nodeTopics != nil else { throw error }  // a stale copy is still a basis
            }
        }
        let spaces: [SpaceNotifySettings]
        do {
            spaces = try await source.spaces()
        } catch {
            throw PushClientError(code: .sourceFailed, message: "spaces could not be listed")
        }
        var states: [SpaceNotifyState] = []
        for space in spaces {
            let listing: ChatListing
            do { listing = .listed(try await source.chats(inSpace: space.spaceKey)) } catch { listing = .unavailable }
            states.append(SpaceNotifyState(spaceKey: space.spaceKey, mode: space.mode, chats: listing))
        }
        let held = nodeTopics ?? []
        let plan = SubscriptionPlan.desiredTopics(me: me, spaces: states, lastKnownGood: lastKnownGood, current: held)
        lastKnownGood = plan.lastKnownGood
        for (spaceKey, how) in plan.sources where how != .listed {
            fallbacks[spaceKey] = how
            log.event("reconcile_fallback", [("space_key", spaceKey), ("using", how.rawValue)])
        }
        guard plan.topics != held else { return .unchanged(count: held.count) }

        let signers = Dictionary(spaces.map { ($0.spaceKey, $0.signer) }, uniquingKeysWith: { first, _ in first })
        var signed: [Topic] = []
        for ref in plan.topics.sorted() {
            guard let signer = signers[ref.spaceKey.string] else { continue }
            signed += try signer.signedTopics([ref.topic])
        }
        let requests = try await upload(signed)
        let added = plan.topics.subtracting(held).count
        let removed = held.subtracting(plan.topics).count
        nodeTopics = plan.topics
        subscribeAllCount += 1
        log.event("subscribe_all", [("trigger", trigger.rawValue), ("topics", "\(plan.topics.count)"),
                                    ("added", "\(added)"), ("removed", "\(removed)"), ("requests", "\(requests)")])
        return .subscribed(count: plan.topics.count, added: added, removed: removed)
    }

    private func readNodeTopics() async throws(PushClientError) -> Set<TopicRef> {
        let list = try await NodeCall.send(transport, "GET", "/v1/subscriptions", as: SubscriptionsResponse.self)
        return Set(list.topics)
    }

    /// SubscribeAll: PUT the first `maxTopicsPerRequest` topics (replacing the set), POST the rest.
    /// Returns the number of requests made.
    private func upload(_ topics: [Topic]) async throws(PushClientError) -> Int {
        let size = max(1, await capabilities.limits().maxTopicsPerRequest)
        var chunks = stride(from: 0, to: topics.count, by: size).map { Array(topics[$0..<min($0 + size, topics.count)]) }
        if chunks.isEmpty { chunks = [[]] }
        do {
            for (index, chunk) in chunks.enumerated() {
                _ = try await NodeCall.send(transport, index == 0 ? "PUT" : "POST", "/v1/subscriptions",
                                            body: JSON.body(SubscribeRequest(topics: chunk)),
                                            as: SubscriptionCountResponse.self)
            }
        } catch {
            nodeTopics = nil  // partly written or unknown: read it again next pass
            throw error
        }
        return chunks.count
    }
}
