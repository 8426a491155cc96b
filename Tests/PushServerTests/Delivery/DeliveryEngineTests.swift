import Foundation
import HTTPClient
import Testing
import PushCrypto
import PushProtocol
@testable import PushAnySync
@testable import PushConfig
@testable import PushDelivery
@testable import PushEngine
@testable import PushHTTP
@testable import PushMetrics
@testable import PushNet
@testable import PushNode
@testable import PushService
@testable import PushStore
@testable import PushSupport

/// A transport answering from a script per token (the FCM `message.token` or the APNs path's
/// last component): each request takes the next answer, the last one repeats; `nil` holds the
/// request unanswered until `releaseHeld`.
final class ScriptedTransport: DeliveryTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var scripts: [String: [ProviderAnswer?]] = [:]
    private var held: [@Sendable (Result<ProviderAnswer, TransportFailure>) -> Void] = []
    private(set) var sent: [(token: String, request: OutboundRequest)] = []

    func script(_ token: String, _ answers: [ProviderAnswer?]) { lock.withLock { scripts[token] = answers } }

    func count(_ token: String) -> Int { lock.withLock { sent.filter { $0.token == token }.count } }

    func send(_ request: OutboundRequest, provider: Provider, timeout: Duration,
              completion: @escaping @Sendable (Result<ProviderAnswer, TransportFailure>) -> Void) {
        let token = Self.token(of: request)
        let answer: ProviderAnswer?? = lock.withLock {
            sent.append((token, request))
            guard var script = scripts[token], !script.isEmpty else { return .some(ProviderAnswer(status: 200)) }
            let next = script.count > 1 ? script.removeFirst() : script[0]
            scripts[token] = script
            if next == nil { held.append(completion) }
            return .some(next)
        }
        if case .some(.some(let reply)) = answer { completion(.success(reply)) }
    }

    func releaseHeld() {
        let pending = lock.withLock { defer { held.removeAll() }; return held }
        pending.forEach { $0(.success(ProviderAnswer(status: 200))) }
    }

    func shutdown() {
        let pending = lock.withLock { defer { held.removeAll() }; return held }
        pending.forEach { $0(.failure(.cancelled)) }
    }

    static func token(of request: OutboundRequest) -> String {
        if request.url.contains("/3/device/") { return String(request.url.split(separator: "/").last!) }
        let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
        return ((object?["message"] as? [String: Any])?["token"] as? String) ?? request.url
    }
}

/// Credentials that are always ready and renew on refusal as the real ones do.
final class FakeCredentials: ProviderCredentials, @unchecked Sendable {
    private let lock = NSLock()
    private var gen = 1
    private var renewedAfterRefusal = -1
    var generation: Int { lock.withLock { gen } }
    func prepare(now: Date) -> Bool { true }
    func current() -> String? { "access-\(generation)" }
    func accepted(generation: Int) {
        lock.withLock { if renewedAfterRefusal == generation { renewedAfterRefusal = -1 } }
    }
    func refused(generation refused: Int, now: Date) -> CredentialRenewal {
        lock.withLock {
            if refused < gen { return .alreadyRenewed }
            if renewedAfterRefusal == gen { return .gaveUp }
            gen += 1
            renewedAfterRefusal = gen
            return .renewed
        }
    }
}

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

    init(attempts: Int = 4, maxInFlight: Int = 100, claimLease: TimeInterval = 60, claimRenewInterval: TimeInterval = 10,
         clock: EngineClock = .system) {
        self.clock = clock
        storeFixture = try! StoreFixture(configuration: .init(claimLease: claimLease))
        var configuration = DeliveryEngine.Configuration(
            policy: RetryPolicy(attempts: attempts, initialBackoff: 0.001, maxBackoff: 0.002),
            maxInFlight: maxInFlight, pollInterval: 0.01)
        configuration.claimRenewInterval = claimRenewInterval
        let fcm = FCMGateway(configuration: .init(projectId: "p", baseURL: "https://fcm.test"),
                             accessToken: { [credentials] in credentials.current() })
        let apnsTokens = FakeCredentials()
        let apns = APNsGateway(configuration: .init(topic: "org.example.app", host: .custom("https://apns.test")),
                               providerToken: { apnsTokens.current() })
        engine = DeliveryEngine(
            store: storeFixture.store,
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
        _ = try store.saveRegistration(Registration(id: id, account: "A", deviceId: token, platform: platform, token: token,
                                                    appId: "default", environment: platform.provider == .apns ? "production" : "",
                                                    createdAt: now, updatedAt: now))
        var record = notification("n\(sequence)-\(token)", at: now, ttl: ttl)
        record.groupId = nil
        _ = try store.enqueue(record, deliveries: [Delivery(registrationId: id, provider: platform.provider)], caller: "S",
                              key: IdempotencyKey(bytes: Array("\(sequence)\(token)".utf8)), duplicateSince: .distantPast)
        engine.wake([platform.provider])
        return id
    }

    func count(_ outcome: String, _ provider: Provider = .fcm) -> Double {
        metrics.counter("pushnode_deliveries_total", help: "", labels: ["provider", "outcome"]).value(provider.rawValue, outcome)
    }

    func depth(_ provider: Provider) -> Int { (try? store.outboxStatistics()[provider]?.depth) ?? 0 }

    /// When the claim on outbox row `id` lapses (its `nextAttemptAt` while claimed).
    func leaseEnd(_ id: Int64) -> Date? {
        try? store.read { db in
            try db.queryFirst("SELECT nextAttemptAt FROM outbox WHERE id = ?", [.integer(id)]) {
                Date(unixMilliseconds: $0.int64(0))
            }
        } ?? nil
    }

    deinit { engine.stop(timeout: 2) }
}

@Suite struct DeliveryEngineTests {
    private func answer(_ status: Int, _ json: String = "", headers: [String: String] = [:]) -> ProviderAnswer {
        ProviderAnswer(status: status, headers: headers, body: Array(json.utf8))
    }

    @Test func deliversAndEmptiesTheOutbox() throws {
        let f = EngineFixture()
        f.engine.start()
        try f.queue("tok-1")
        try f.queue("0a0b", platform: .apns)
        waitUntil { f.count("delivered") == 1 && f.count("delivered", .apns) == 1 && f.depth(.fcm) == 0 && f.depth(.apns) == 0 }
        #expect(f.transport.sent.first { $0.token == "tok-1" }?.request.header("authorization") == "Bearer access-1")
    }

    @Test func transientAnswersAreRetriedThenDelivered() throws {
        let f = EngineFixture()
        f.transport.script("flaky", [answer(503), answer(500), answer(200)])
        f.engine.start()
        try f.queue("flaky")
        waitUntil { f.count("delivered") == 1 }
        #expect(f.transport.count("flaky") == 3 && f.count("retried") == 2)
    }

    @Test func retriesStopAtTheAttemptCap() throws {
        let f = EngineFixture(attempts: 3)
        f.transport.script("down", [answer(503)])
        f.engine.start()
        try f.queue("down")
        waitUntil { f.count("rejected") == 1 && f.depth(.fcm) == 0 }
        #expect(f.transport.count("down") == 3)
    }

    @Test func aDeadTokenIsPrunedAndItsQueueDropped() throws {
        let f = EngineFixture()
        let unregistered = #"{"error":{"code":404,"status":"NOT_FOUND","details":[{"@type":"type.googleapis.com/google.firebase.fcm.v1.FcmError","errorCode":"UNREGISTERED"}]}}"#
        f.transport.script("gone", [answer(404, unregistered)])
        f.engine.start()
        try f.queue("gone")
        waitUntil { f.count("dead") == 1 }
        #expect(try f.store.registrations(ofAccount: "A").isEmpty)
        let pruned = f.metrics.counter("pushnode_registrations_pruned_total", help: "", labels: ["provider", "reason"])
        #expect(pruned.value("fcm", "fcm.unregistered") == 1)
    }

    @Test func aRefusedCredentialIsRenewedOnceThenTheProviderIsUnhealthy() throws {
        let f = EngineFixture()
        let unauthenticated = #"{"error":{"code":401,"status":"UNAUTHENTICATED"}}"#
        f.transport.script("auth-once", [answer(401, unauthenticated), answer(200)])
        f.engine.start()
        try f.queue("auth-once")
        waitUntil { f.count("delivered") == 1 }
        #expect(f.credentials.generation == 2)
        #expect(f.transport.sent.last?.request.header("authorization") == "Bearer access-2")
        #expect(f.engine.health.state(of: .fcm) == .healthy)

        f.transport.script("auth-always", [answer(401, unauthenticated)])
        try f.queue("auth-always")
        waitUntil { f.engine.health.state(of: .fcm) == .credentialsRefused }
        // token-2 had worked, so its refusal renews once (token-3); token-3 refused too: unhealthy.
        #expect(f.credentials.generation == 3)
        waitUntil { f.count("rejected") == 1 }  // retried within the attempt cap, then dropped
        #expect(f.engine.health.snapshot["fcm"] == "credentials_refused")
    }

    @Test func anExpiredDeliveryIsNeverSent() throws {
        let f = EngineFixture()
        try f.queue("late", ttl: 0.5)  // less than a whole second left: never sent
        f.engine.start()
        waitUntil { f.count("expired") == 1 }
        #expect(f.transport.count("late") == 0)
    }

    @Test func oneProvidersStalledRequestsDoNotHoldUpAnother() throws {
        let f = EngineFixture(maxInFlight: 2)
        let slow = ["0a01", "0a02", "0a03", "0a04"]
        for token in slow { f.transport.script(token, [nil]) }
        f.engine.start()
        for token in slow { try f.queue(token, platform: .apns) }
        for index in 0..<5 { try f.queue("fast-\(index)") }
        waitUntil { f.count("delivered") == 5 && f.engine.inFlight[.apns] == 2 }
        // APNs holds its two in flight, the rest wait in the outbox, not dropped.
        #expect(f.engine.inFlight[.apns] == 2 && f.depth(.apns) == 4)
        f.transport.releaseHeld()
        waitUntil { f.count("delivered", .apns) >= 2 }
        waitUntil {
            f.transport.releaseHeld()
            return f.count("delivered", .apns) == 4 && f.depth(.apns) == 0
        }
    }

    /// A send that outlasts the claim lease keeps its claim: the lane renews it, so another
    /// claimer (another node, or this one after the lease) never sees the row as due. The
    /// engine runs on a manual clock, stepped one renew interval at a time.
    @Test func claimsOfRequestsInFlightAreRenewedPastTheirLease() throws {
        let manual = ManualClock(Date())
        let f = EngineFixture(claimLease: 30, claimRenewInterval: 10, clock: manual.engineClock)
        f.transport.script("held-token", [nil])
        f.engine.start()
        try f.queue("held-token")
        waitUntil { f.engine.inFlight[.fcm] == 1 }
        let id = try #require(try f.store.read { db in try db.queryFirst("SELECT id FROM outbox") { $0.int64(0) } })
        #expect(f.leaseEnd(id) == Date(unixMilliseconds: manual.now.addingTimeInterval(30).unixMilliseconds))
        for _ in 0..<4 {  // past the first lease, with the request still outstanding
            manual.advance(by: 10)
            let renewed = Date(unixMilliseconds: manual.now.addingTimeInterval(30).unixMilliseconds)
            waitUntil { f.leaseEnd(id) == renewed }
            #expect(try f.store.claimDue(provider: .fcm, limit: 10, now: manual.now).entries.isEmpty)
        }
        f.transport.releaseHeld()
        waitUntil { f.count("delivered") == 1 && f.depth(.fcm) == 0 }
        #expect(f.transport.count("held-token") == 1)
    }

    @Test func outboxGaugesAreSampledAtScrape() throws {
        let f = EngineFixture()
        try f.queue("waiting")  // engine not started: stays queued
        let text = f.metrics.render()
        #expect(text.contains("pushnode_outbox_depth{provider=\"fcm\"} 1"))
        #expect(text.contains("pushnode_outbox_depth{provider=\"apns\"} 0"))
        #expect(text.contains("pushnode_outbox_oldest_age_seconds{provider=\"fcm\"}"))
        #expect(text.contains("pushnode_provider_healthy{provider=\"fcm\"} 1"))
    }
}
