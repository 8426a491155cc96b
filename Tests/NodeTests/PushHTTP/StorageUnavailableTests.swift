import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushHTTP
@testable import PushMetrics
@testable import PushService
@testable import PushStore
@testable import PushSupport

/// A storage fault reaches the HTTP wire as 503 `storage.unavailable` with `Retry-After` and the
/// fixed body, never with its text, and never as a 4xx (PROTOCOL §3.2).
@Suite struct StorageUnavailableTests {
    static let body = #"{"error":{"code":"storage.unavailable","message":"storage is unavailable; retry later"}}"#
    let service = PushService(store: FailingStore(), configuration: .init())

    static func expectStorageUnavailable(_ response: HTTPResponse, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(response.status == 503, sourceLocation: sourceLocation)
        #expect(response.headers.contains { $0 == ("Retry-After", String(ErrorJSON.storageRetryAfter)) }, sourceLocation: sourceLocation)
        #expect(String(decoding: response.body, as: UTF8.self) == body, sourceLocation: sourceLocation)
    }

    func router(_ handler: @escaping APIRouter.AuthenticatedHandler, replayCache: any ReplayCache = MemoryReplayCache(),
                storage: StorageHealth? = nil, log: LogSink = .discard) -> APIRouter {
        APIRouter(
            capabilities: Capabilities(version: "test", platforms: [.webpush], vapidPublicKey: "BKey", limits: Limits()),
            authenticator: RequestAuthenticator(replayCache: replayCache, storage: storage), rateLimiter: RateLimiter(),
            handler: handler, operations: OperationsRoutes(metrics: MetricsRegistry(), readiness: { .ready }), log: log)
    }

    @Test func everyRouteAnswersAFailingStoreWith503AndTheFixedBody() throws {
        let seen = Box([String]())
        let routes = ServiceRoutes(service: service) { error in seen.mutate { $0.append("\(error)") } }
        for (method, path, body) in [("GET", "/v1/subscriptions", ""), ("GET", "/v1/tokens", ""),
                                     ("POST", "/v1/tokens/revoke", #"{"deviceId":"phone"}"#)] {
            let response = try #require(routes.handle(HTTPRequest(method: method, path: path, body: Array(body.utf8)),
                                                      caller: Keys.alice.accountID))
            Self.expectStorageUnavailable(response)
        }
        // The detail is for the log only.
        #expect(seen.current.count == 3 && seen.current.allSatisfy { $0.contains(LeakyStoreError.secret) })
        #expect(!service.storageHealth.isAvailable)
    }

    @Test func theRouterAnswers503AndLogsNoDetail() throws {
        let lines = Box([String]())
        let routes = ServiceRoutes(service: service)
        let router = router({ routes.handle($0, caller: $1) }, log: LogSink { line in lines.mutate { $0.append(line) } })
        let response = router.respond(to: HTTPRequest.signed("GET", "/v1/subscriptions", created: Int64(Clocks.unixSeconds())))
        Self.expectStorageUnavailable(response)
        #expect(!String(decoding: response.body, as: UTF8.self).contains(LeakyStoreError.secret))
        #expect(lines.current.count == 1 && !lines.current[0].contains(LeakyStoreError.secret))
    }

    /// A replay window that cannot be checked is the node's fault: 503, never 401 `auth.replayed`.
    @Test func aFailingReplayCacheIs503NotReplayed() throws {
        let storage = StorageHealth()
        let reached = Box(0)
        let router = router({ _, _ in
            reached.mutate { $0 += 1 }
            return JSON.response(["ok": true])
        }, replayCache: UnavailableReplayCache(), storage: storage)
        for _ in 0..<2 {
            let response = router.respond(to: HTTPRequest.signed("GET", "/v1/subscriptions", created: Int64(Clocks.unixSeconds())))
            Self.expectStorageUnavailable(response)
        }
        #expect(reached.current == 0)
        #expect(!storage.isAvailable && storage.failures == 2 && storage.failing == [.write])
    }

    static func readinessText(_ operations: OperationsRoutes) -> (Int, String) {
        let response = operations.respond(.readiness)
        return (response.status, String(decoding: response.body, as: UTF8.self))
    }

    static let unavailable = (503, #"{"status":"storage_unavailable"}"#)
    static let ready = (200, #"{"status":"ready"}"#)

    /// A database that went away: reads fail too, and the probe's read ends the fault once it is
    /// back, with no other traffic and no write tried.
    @Test func readyzIs503WhileStorageFailsAnd200OnceTheProbesReadSucceeds() throws {
        let store = SwitchableStore()
        let service = PushService(store: store, configuration: .init())
        let operations = OperationsRoutes(metrics: MetricsRegistry(), readiness: { .ready },
                                          probeStorage: { service.probeStorage() })
        #expect(Self.readinessText(operations) == Self.ready)

        store.failing.mutate { $0 = true }
        #expect(throws: ServiceError.self) { _ = try service.subscriptions(caller: Keys.alice.accountID) }
        #expect(Self.readinessText(operations) == Self.unavailable)
        #expect(Self.readinessText(operations) == Self.unavailable)  // the probe failed too

        store.failing.mutate { $0 = false }
        #expect(Self.readinessText(operations) == Self.ready)  // no traffic: the probe's read ends the fault
        #expect(service.storageHealth.isAvailable && store.probes.current == 0)
    }

    /// A full disk: every write fails while reads work. Neither the requests' reads nor the probe's
    /// end the fault; the probe's write does, once writes work again, with nobody else writing.
    @Test func readyzStays503ThroughReadsWhileWritesFailAndTheProbesWriteEndsIt() throws {
        let store = SwitchableStore()
        let service = PushService(store: store, configuration: .init())
        let operations = OperationsRoutes(metrics: MetricsRegistry(), readiness: { .ready },
                                          probeStorage: { service.probeStorage() })
        let space = TestSpace(seed: 3)
        store.writesFail.mutate { $0 = true }
        #expect(throws: ServiceError.self) {
            _ = try service.subscribeAll(SubscribeRequest(topics: [space.topic("a")]), caller: Keys.alice.accountID)
        }
        #expect(try service.subscriptions(caller: Keys.alice.accountID).topics.isEmpty)  // reads still work
        #expect(Self.readinessText(operations) == Self.unavailable)
        #expect(try service.listTokens(caller: Keys.alice.accountID).registrations.isEmpty)
        #expect(Self.readinessText(operations) == Self.unavailable)
        #expect(store.probes.current == 2)

        store.writesFail.mutate { $0 = false }
        #expect(Self.readinessText(operations) == Self.ready)
        #expect(store.probes.current == 3)
        #expect(Self.readinessText(operations) == Self.ready)
        #expect(store.probes.current == 3)  // available: nothing to probe
    }

    @Test func startingAndDrainingStillWinOverTheProbe() {
        let probed = Box(0)
        let operations = OperationsRoutes(metrics: MetricsRegistry(), readiness: { .draining },
                                          probeStorage: { probed.mutate { $0 += 1 }; return false })
        #expect(String(decoding: operations.respond(.readiness).body, as: UTF8.self) == #"{"status":"draining"}"#)
        #expect(probed.current == 0)
    }

    @Test func theFaultIsLoggedWhenItStartsAndEndsWithoutItsText() {
        let lines = Box([String]())
        let failures = Box(0)
        let clock = Box(100.0)
        let storage = StorageHealth(log: LogSink { line in lines.mutate { $0.append(line) } },
                                    onFailure: { failures.mutate { $0 += 1 } }, now: { clock.current })
        storage.recordSuccess(.write)
        storage.recordFailure(.write, LeakyStoreError())
        clock.mutate { $0 = 101.5 }
        storage.recordFailure(.read, PGError(message: "could not connect", connectionLost: true))
        storage.recordSuccess(.read)
        #expect(!storage.isAvailable && storage.failing == [.write])
        clock.mutate { $0 = 103.25 }
        storage.recordSuccess(.write)
        storage.recordSuccess(.write)
        #expect(failures.current == 2 && storage.failures == 2 && storage.isAvailable)
        #expect(lines.current == ["level=error event=storage_unavailable access=write error_type=LeakyStoreError",
                                  "level=info event=storage_recovered fault_seconds=3.25"])
        #expect(!lines.current.joined().contains(LeakyStoreError.secret))
        #expect(LogRecord(.error, "x", StorageHealth.fields(PGError(message: "x", connectionLost: true))).fieldText
                == "error_type=postgres sqlstate=- connection_lost=true")
        #expect(LogRecord(.error, "x", StorageHealth.fields(SQLiteError(code: 13, message: "database or disk is full"))).fieldText
                == "error_type=sqlite sqlite_code=13")
    }
}

/// A replay cache whose database is down.
struct UnavailableReplayCache: ReplayCache {
    func record(keyID: String, nonce: String, expiresAt: Double, now: Double) -> ReplayCheck { .unavailable }
}
