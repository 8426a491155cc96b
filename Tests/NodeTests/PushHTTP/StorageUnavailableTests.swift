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
        #expect(!storage.isAvailable && storage.failures == 2)
    }

    @Test func readyzIs503WhileStorageFailsAnd200OnceAStoreCallSucceeds() throws {
        let store = SwitchableStore()
        let service = PushService(store: store, configuration: .init())
        let operations = OperationsRoutes(metrics: MetricsRegistry(), readiness: { .ready },
                                          probeStorage: { service.probeStorage() })
        #expect(operations.respond(.readiness).status == 200)

        store.failing.mutate { $0 = true }
        #expect(throws: ServiceError.self) { _ = try service.subscriptions(caller: Keys.alice.accountID) }
        let failing = operations.respond(.readiness)
        #expect(failing.status == 503)
        #expect(String(decoding: failing.body, as: UTF8.self) == #"{"status":"storage_unavailable"}"#)
        #expect(operations.respond(.readiness).status == 503)  // the probe failed too

        store.failing.mutate { $0 = false }
        let recovered = operations.respond(.readiness)  // no traffic: the probe's read ends the fault
        #expect(recovered.status == 200)
        #expect(String(decoding: recovered.body, as: UTF8.self) == #"{"status":"ready"}"#)
        #expect(service.storageHealth.isAvailable)
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
        let storage = StorageHealth(log: LogSink { line in lines.mutate { $0.append(line) } },
                                    onFailure: { failures.mutate { $0 += 1 } })
        storage.recordSuccess()
        storage.recordFailure(LeakyStoreError())
        storage.recordFailure(PGError(message: "could not connect", connectionLost: true))
        storage.recordSuccess()
        storage.recordSuccess()
        #expect(failures.current == 2 && storage.failures == 2 && storage.isAvailable)
        #expect(lines.current.count == 2)
        #expect(lines.current.first == "level=error event=storage_unavailable error_type=LeakyStoreError")
        #expect(lines.current.last?.hasPrefix("level=info event=storage_recovered fault_seconds=") == true)
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
