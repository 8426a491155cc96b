import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushHTTP
@testable import PushMetrics
@testable import PushService
@testable import PushSupport

/// A store failure reaches the HTTP wire as the fixed 500 `internal` body, never with its text.
@Suite struct InternalErrorTests {
    let service = PushService(store: FailingStore(), configuration: .init())

    @Test func serviceRoutesAnswerTheScrubbedBody() throws {
        let seen = Box([String]())
        let routes = ServiceRoutes(service: service) { error in seen.mutate { $0.append("\(error)") } }
        for (method, path, body) in [("GET", "/v1/subscriptions", ""), ("GET", "/v1/tokens", ""),
                                     ("POST", "/v1/tokens/revoke", #"{"deviceId":"phone"}"#)] {
            let response = try #require(routes.handle(HTTPRequest(method: method, path: path, body: Array(body.utf8)),
                                                      caller: Keys.alice.accountID))
            #expect(response.status == 500)
            #expect(String(decoding: response.body, as: UTF8.self) == ErrorJSONTests.scrubbed)
        }
        // The detail is for the log only.
        #expect(seen.current.count == 3 && seen.current.allSatisfy { $0.contains(LeakyStoreError.secret) })
    }

    @Test func theRouterAnswersTheScrubbedBodyAndLogsNoDetail() throws {
        let lines = Box([String]())
        let routes = ServiceRoutes(service: service)
        let router = APIRouter(
            capabilities: Capabilities(version: "test", platforms: [.webpush], vapidPublicKey: "BKey", limits: Limits()),
            authenticator: RequestAuthenticator(), rateLimiter: RateLimiter(),
            handler: { routes.handle($0, caller: $1) },
            operations: OperationsRoutes(metrics: MetricsRegistry(), readiness: { .ready }),
            log: LogSink { line in lines.mutate { $0.append(line) } })
        let request = HTTPRequest.signed("GET", "/v1/subscriptions", created: Int64(Clocks.unixSeconds()))
        let response = router.respond(to: request)
        #expect(response.status == 500)
        let body = String(decoding: response.body, as: UTF8.self)
        #expect(body == ErrorJSONTests.scrubbed)
        #expect(!body.contains(LeakyStoreError.secret))
        #expect(lines.current.count == 1 && !lines.current[0].contains(LeakyStoreError.secret))
    }
}
