import Foundation
import HTTPClient
import PushCrypto
import PushProtocol
import Testing
@testable import PushDelivery
@testable import PushEngine
@testable import PushMetrics
@testable import PushStore

/// An engine over a temporary SQLite store with the scripted transport and real gateways.
final class EngineFixture {
    let storeFixture: StoreFixture
    let transport = ScriptedTransport()
    let credentials = FakeCredentials()
    let metrics = MetricsRegistry()
    let engine: DeliveryEngine
    let clock: EngineClock
    var store: SQLiteStore { storeFixture.store }
    private var sequence = 0

    /// `outbox`: what the engine is given of the store (the store itself unless a test wraps it).
    init(attempts: Int = 4, maxInFlight: Int = 100, claimLease: TimeInterval = 60, claimRenewInterval: TimeInterval = 10,
         clock: EngineClock = .system, outbox: (SQLiteStore) -> any OutboxStore = { $0 }) {
        self.clock = clock
        storeFixture = try! StoreFixture(configuration: .init(claimLease: claimLease))
        var configuration = DeliveryEngine.Configuration(
            policy: RetryPolicy(attempts: attempts, initialBackoff: 0.001, maxBackoff: 0.002),
            maxInFlight: maxInFlight, pollInterval: 0.01)
        configuration.claimRenewInterval = claimRenewInterval
        let fcm = CredentialedGateway<FCMGateway>(configuration: .init(projectId: "p", baseURL: "https://fcm.test"),
                                                  credential: { [credentials] in credentials.current() })
        let apnsTokens = FakeCredentials()
        let apns = CredentialedGateway<APNsGateway>(configuration: .init(topic: "org.example.app", host: .custom("https://apns.test")),
                                                    credential: { apnsTokens.current() })
        engine = DeliveryEngine(
            store: outbox(storeFixture.store),
            routes: [.init(gateway: fcm, credentials: credentials), .init(gateway: apns, credentials: apnsTokens)],
            transport: transport,
            configuration: configuration, metrics: metrics, log: .discard, clock: clock)
    }

    /// Registers `token` and queues one delivery of a new notification to it, at the engine's time.
    @discardableResult
    func queue(_ token: String, platform: Platform = .android, ttl: TimeInterval = 3600) throws -> String {
        sequence += 1
        let id = "r-\(token)"
        let now = clock.now()
        let address = DeliveryAddress(platform: platform, token: token,
                                      environment: platform.provider == .apns ? "production" : "")
        _ = try store.saveRegistration(Registration(id: id, account: "A", deviceId: token, address: address,
                                                    createdAt: now, updatedAt: now))
        var record = notification("n\(sequence)-\(token)", at: now, ttl: ttl)
        record.groupId = nil
        _ = try store.enqueue(record, deliveries: [Delivery(registrationId: id, provider: platform.provider)], caller: "S",
                              key: IdempotencyKey(bytes: Array("\(sequence)\(token)".utf8)), duplicateSince: .distantPast)
        engine.wake([platform.provider])
        return id
    }

    func count(_ outcome: String, _ provider: Provider = .fcm) -> Double {
        metrics.counter("pushnode_deliveries_total", help: "", labels: ["provider", "app", "outcome"]).value(provider.rawValue, "default", outcome)
    }

    func depth(_ provider: Provider) -> Int { (try? store.outboxStatistics()[provider]?.depth) ?? 0 }

    /// When the claim on outbox row `id` lapses (its `nextAttemptAt` while claimed).
    func leaseEnd(_ id: Int64) -> Date? {
        try? store.read { db in
            try db.queryFirst("SELECT next_attempt_at FROM outbox WHERE id = ?", [.integer(id)]) {
                Date(unixMilliseconds: $0.int64(0))
            }
        } ?? nil
    }

    deinit { engine.drain(timeout: 2) }
}
