import Foundation
import PushCrypto
import PushNet
import PushProtocol
import PushStore
import PushSupport

/// The node's operations, independent of the transport that decoded and authenticated the request
/// (the HTTP API and the any-sync door call the same methods). Every rule of PROTOCOL §3–§4 lives here; the store
/// only persists.
///
/// Every method blocks the calling thread (store writes are group-committed) and may be called from
/// many threads at once. Every operation throws only `ServiceError`: a refusal with its stable code,
/// or a storage failure, which no door answers as the caller's fault.
package final class PushService: Sendable {
    package struct Configuration: Sendable {
        package var limits: Limits
        /// `spaces.requireRegistration`: topics of spaces the caller has not registered are refused at
        /// subscribe and dropped at Notify.
        package var requireSpaceRegistration: Bool
        /// Platforms with credentials of the app `default`; registering a token for another is
        /// refused `platform.disabled`.
        package var enabledPlatforms: Set<Platform>
        /// The other configured apps (`apps` of config.yaml) and their platforms; an `appId` that
        /// is neither `default` nor one of these is refused `app.unknown` (PROTOCOL §10).
        package var apps: [String: Set<Platform>]
        /// `webpush.allowPrivateEndpoints`: admits `http://` and private endpoint hosts.
        package var allowPrivateEndpoints: Bool
        /// Called after a Notify's deliveries are committed, with their providers: the delivery
        /// engine's wakeup.
        package var deliveriesQueued: (@Sendable (Set<Provider>) -> Void)?
        /// Sends one test push to a registration and waits for the provider's answer (bounded):
        /// `POST /v1/tokens/test`, carried out by the delivery engine's routes. Nil: no engine
        /// (the route answers `registration.not_found` for every id).
        package var testPush: (@Sendable (Registration) -> TestTokenResponse)?

        package init(limits: Limits = .default, requireSpaceRegistration: Bool = false,
                    enabledPlatforms: Set<Platform> = Set(Platform.allCases), apps: [String: Set<Platform>] = [:],
                    allowPrivateEndpoints: Bool = false, deliveriesQueued: (@Sendable (Set<Provider>) -> Void)? = nil) {
            self.limits = limits
            self.requireSpaceRegistration = requireSpaceRegistration
            self.enabledPlatforms = enabledPlatforms
            self.apps = apps
            self.allowPrivateEndpoints = allowPrivateEndpoints
            self.deliveriesQueued = deliveriesQueued
        }
    }

    /// How long a Notify's idempotency key answers duplicates: the stores' window, which their purge keeps.
    package static let idempotencyWindow = StoreRetention.idempotencyWindow

    /// Registrations, spaces and subscriptions: the token, space and subscription operations, and
    /// whom a Notify reaches.
    package let registry: any RegistryStore
    /// Notifications, their idempotency records and statuses: Notify and its outcomes.
    package let notifications: any NotificationStore
    /// Fed by every store call (`stored`) and probe (`probeStorage`): what `/readyz` reports.
    package let storageHealth: StorageHealth
    package let configuration: Configuration
    /// `POST /v1/tokens/test`'s budget per registration (`RateClass.testPush`).
    let testPushes: RateLimiter
    let tokenRules: TokenRules
    let topicSignatures: TopicSignatureCache
    /// One account's count-then-write at a time (`AccountBounds`).
    let accountLocks = AccountLocks()
    package let clock: @Sendable () -> Date
    let counters = Protected(Statistics())

    /// Over one store that holds both roles (every node store).
    package convenience init(store: any RegistryStore & NotificationStore, configuration: Configuration,
                             resolver: any HostResolving = CachingResolver.shared, clock: @escaping @Sendable () -> Date = { Date() },
                             signatureCacheCapacity: Int = 65_536, storageHealth: StorageHealth = StorageHealth()) {
        self.init(registry: store, notifications: store, configuration: configuration, resolver: resolver, clock: clock,
                  signatureCacheCapacity: signatureCacheCapacity, storageHealth: storageHealth)
    }

    /// With the two roles apart (a benchmark's own Notify path, a test double of one role); the
    /// host resolver and the clock are the caller's choice (tests).
    package init(registry: any RegistryStore, notifications: any NotificationStore, configuration: Configuration,
                 resolver: any HostResolving = CachingResolver.shared, clock: @escaping @Sendable () -> Date = { Date() },
                 signatureCacheCapacity: Int = 65_536, storageHealth: StorageHealth = StorageHealth()) {
        self.registry = registry
        self.notifications = notifications
        self.storageHealth = storageHealth
        self.configuration = configuration
        self.tokenRules = TokenRules(
            appPlatforms: configuration.apps.merging([TokenRules.defaultApp: configuration.enabledPlatforms]) { $1 },
            endpointPolicy: WebPushEndpointPolicy(allowPrivateEndpoints: configuration.allowPrivateEndpoints,
                                                  resolver: resolver))
        self.topicSignatures = TopicSignatureCache(capacity: signatureCacheCapacity)
        self.clock = clock
        self.testPushes = RateLimiter(maxBuckets: 50_000)
    }

    package var limits: Limits { configuration.limits }

    /// Refuses with `request.invalid_field` at `topics` past `limits.maxTopicsPerRequest`.
    func checkTopicCount(_ count: Int) throws(ServiceError) {
        guard count <= limits.maxTopicsPerRequest else {
            throw .invalid("topics", "at most \(limits.maxTopicsPerRequest) topics per request")
        }
    }

    /// Verifies every topic signature (through the cache); the first bad one fails the request with
    /// `topic.signature_invalid` naming it. `index` is the topic's place in the request.
    ///
    /// The operations call it for the topics they keep; the any-sync door also for the ones its rpcs
    /// carry signed where the HTTP routes take none or drop them unchecked (PROTOCOL §8).
    package func verifySignatures(of topics: [(index: Int, topic: Topic)]) throws(ServiceError) {
        for (index, topic) in topics where !topicSignatures.isValid(topic) {
            throw .refused(.topicSignatureInvalid, "the signature of topics[\(index)] does not verify",
                           field: "topics[\(index)].signature")
        }
    }

    /// A call of the store of kind `access`: whatever it throws is a storage failure, and its
    /// outcome goes to `storageHealth` (a failed write keeps storage unavailable until a write
    /// succeeds, however many reads do: `StorageFaults`).
    ///
    /// Every error counts, not only the ones known to be faults (connection refused or lost, disk
    /// full, read-only, busy past the timeout, I/O): the service validates every value before the
    /// store sees it, and the stores turn the constraint violations they expect into answers
    /// (upserts, `StoreError.subscriptionLimitExceeded`), so what is left is the database failing.
    /// A programming error would show up the same way, as a 503 whose detail is in the node's log.
    @discardableResult
    func stored<T>(_ access: StorageAccess, _ body: () throws -> T) throws(ServiceError) -> T {
        do {
            return try storageHealth.record(access, body)
        } catch {
            throw .storageFailed(error)
        }
    }

    /// While storage is failing, tries what failed — one cheap read, `NotificationStore.probeWrite` — so
    /// that `/readyz` turns 200 again once storage works even without traffic (a drained node, or
    /// one nobody writes to); returns whether storage is available.
    package func probeStorage() -> Bool {
        let failing = storageHealth.failing
        if failing.contains(.read) {
            // Any read that reaches the database does; an account id is never empty, so this finds nothing.
            _ = try? stored(.read) { try registry.spaces(ofAccount: "") }
        }
        if failing.contains(.write) { _ = try? stored(.write) { try notifications.probeWrite() } }
        return storageHealth.isAvailable
    }

    /// A shape rule of PushProtocol: its error becomes a refusal.
    func shaped(_ rule: @autoclosure () throws(APIError) -> Void) throws(ServiceError) {
        do {
            try rule()
        } catch {
            throw .refused(ServiceError.Refusal(error))
        }
    }
}
