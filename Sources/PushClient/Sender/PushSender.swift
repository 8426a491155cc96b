import PushCrypto
import PushProtocol

/// Publishes chat pushes to the node for one account, fire-and-forget (Spec/any-compat.md,
/// PROTOCOL §4).
///
/// Every public call only queues a description of the push and returns at once — it never waits
/// on the network and never blocks a chat write. A background worker then, per call: reads the
/// node's limits (`GET /v1/capabilities`, once, cached), builds the any topic superset and payload,
/// shrinks the payload until it fits, seals it with the space's payload key, signs it with the
/// account key, signs the topics with the space key, and sends it, retrying per `RetryPolicy`
/// with identical bytes. The queue is bounded: a call made while `queueCapacity` pushes are still
/// outstanding is dropped and counted, so memory stays bounded when the node is down.
///
/// Call `shutdown()` before letting go of the sender to drain what is queued; dropping the last
/// reference stops the worker once the queue is empty, and retries still waiting are lost.
public final class PushSender: Sendable {
    public struct Configuration: Sendable {
        /// Pushes that may be outstanding (queued, sending or waiting to retry) at once.
        public var queueCapacity: Int
        /// Tries and pauses per request.
        public var retry: RetryPolicy
        /// This device's id, skipped by the silent notify of `chatRead`.
        public var deviceId: String?
        /// How long a call rings (the ttl of `callRing`); PROTOCOL §4 default 45 s.
        public var ringWindow: Duration
        /// The sealed-payload bound besides the node's `maxPayloadBytes`: payloads are shrunk to
        /// `min(maxPayloadBytes, providerPayloadLimit)` so a maximal push still fits every provider
        /// (see `ProviderPayloadLimit`). nil budgets to the node's limit alone.
        public var providerPayloadLimit: Int?

        public init(queueCapacity: Int = 1000, retry: RetryPolicy = .fixed(), deviceId: String? = nil,
                    ringWindow: Duration = .seconds(45),
                    providerPayloadLimit: Int? = ProviderPayloadLimit.everyProvider) {
            self.queueCapacity = max(1, queueCapacity)
            self.retry = retry
            self.deviceId = deviceId
            self.ringWindow = ringWindow
            self.providerPayloadLimit = providerPayloadLimit
        }
    }

    /// What the sender has done so far.
    public struct Counters: Sendable, Equatable {
        /// Calls queued.
        public var accepted = 0
        /// Requests the node accepted as new.
        public var sent = 0
        /// Requests the node answered `duplicate: true` (a retry of one already accepted).
        public var duplicate = 0
        /// Calls dropped because the queue was full (or the sender shut down).
        public var dropped = 0
        /// Payloads that had to be shrunk to fit.
        public var shrunk = 0
        /// Retries scheduled.
        public var retried = 0
        /// Requests that failed, by reason: `rejected`, `retries_exhausted`, `rate_limited`,
        /// `payload_unfittable`, `seal_failed`; for `send(_:in:)` also `payload_too_large`, `invalid_push`.
        public var failed: [String: Int] = [:]

        public init() {}

        public var failedTotal: Int { failed.values.reduce(0, +) }
    }

    private let core: SenderCore

    /// - Parameters:
    ///   - transport: signed requests to the node (the host binds RFC 9421 signing + HTTP).
    ///   - account: the account key: the payload signer and the sender id.
    ///   - capabilities: share one with a `Reconciler` on the same node; made here when nil.
    ///   - clock: time for retry pauses (virtual in tests).
    public init(transport: any NodeTransport, account: AccountKey, configuration: Configuration = Configuration(),
                capabilities: CapabilitiesCache? = nil, clock: any PushClock = SystemPushClock(), log: PushLog = .none) {
        core = SenderCore(transport: transport, account: account, configuration: configuration,
                          capabilities: capabilities ?? CapabilitiesCache(transport: transport, clock: clock),
                          clock: clock, log: log)
        core.start()
    }

    deinit { core.stopWhenIdle() }

    /// A new message: publishes `chats`, `chats/<sha>` and, per mention, `chats/<sha>/<id>` and `<id>`,
    /// kind `message`, `groupId = sha256hex(chat.id)`.
    /// - Returns: false when the call was dropped (queue full).
    @discardableResult
    public func chatMessage(space: PushSpace, chat: PushChat, message: OutgoingMessage, mentions: [String] = []) -> Bool {
        core.enqueue(SendJob(.chat(ChatCall(kind: .message, space: space, chat: chat, message: message, identities: mentions))))
    }

    /// An edit: publishes only the mention topics of `newMentions` (see `ChatTopics.addedMentions`);
    /// nothing at all when there are none.
    @discardableResult
    public func chatEdit(space: PushSpace, chat: PushChat, message: OutgoingMessage, newMentions: [String]) -> Bool {
        guard !newMentions.isEmpty else { return true }
        return core.enqueue(SendJob(.chat(ChatCall(kind: .edit, space: space, chat: chat, message: message, identities: newMentions))))
    }

    /// A read: a silent notify (`POST /v1/notify/silent`) to the account's own identity topic with
    /// the chat's `groupId`, waking its other devices; `skipDevice` (default: the configured
    /// `deviceId`) is not woken. It carries a small sealed read marker (`type` 0, the chat id), so
    /// each read is a distinct request: without a message the node would take a second read of the
    /// same chat within 24 h for a duplicate of the first and drop it.
    @discardableResult
    public func chatRead(space: PushSpace, chat: PushChat, skipDevice: String? = nil) -> Bool {
        core.enqueue(SendJob(.chat(ChatCall(kind: .read, space: space, chat: chat, message: nil, identities: [],
                                            skipDevice: skipDevice ?? core.configuration.deviceId))))
    }

    /// A call ring: kind `call`, ttl = the ring window, on the message topics with `invitees` as the
    /// mentions; the payload has `type` 2 (`PushPayload.callRing`) and names the call's message.
    @discardableResult
    public func callRing(space: PushSpace, chat: PushChat, call: OutgoingMessage, invitees: [String] = [],
                         ringWindow: Duration? = nil) -> Bool {
        let window = ringWindow ?? core.configuration.ringWindow
        let ttl = max(1, Int(window.timeInterval.rounded(.up)))
        return core.enqueue(SendJob(.chat(ChatCall(kind: .call, space: space, chat: chat, message: call, identities: invitees, ttl: ttl))))
    }

    /// A push of your own bytes, for any chat server: `push.payload` is sealed as it is with the
    /// space's payload key (no envelope added; nil sends a content-free wake), signed with the
    /// account key, the topics signed with the space's push key, and sent with the push's kind,
    /// `groupId`, ttl and `replaces` — queued, retried and counted like the chat calls.
    ///
    /// A payload whose sealed size exceeds `min(node maxPayloadBytes, providerPayloadLimit)` is not
    /// shrunk (the sender cannot know its format) but fails, counted as `payload_too_large`; a push
    /// the node would refuse (kind `clear` or `replaces` without `groupId`) as `invalid_push`.
    /// - Returns: false when the call was dropped (queue full).
    @discardableResult
    public func send(_ push: OutgoingPush, in space: PushSpaceKeys) -> Bool {
        core.enqueue(SendJob(.push(push, signer: space.pushKey, sealer: space.payloadKey)))
    }

    /// A snapshot of the counters.
    public var counters: Counters { core.counters }

    /// Waits until every accepted call has been sent, failed or dropped (retries included).
    public func flush() async { await core.flush() }

    /// Stops accepting calls, drains what is outstanding (retries may take up to
    /// `maxAttempts × interval`), and ends the worker.
    public func shutdown() async { await core.shutdown() }
}
