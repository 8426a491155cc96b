import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushHTTP
@testable import PushMetrics
@testable import PushService

/// The one route table: operations, rate classes, 404/405 and `Allow` on both listeners.
@Suite struct RouteTableTests {
    static func router() -> APIRouter {
        APIRouter(capabilities: Capabilities(version: "test", platforms: [.webpush], vapidPublicKey: "BKey", limits: Limits()),
                  authenticator: RequestAuthenticator(), rateLimiter: RateLimiter(),
                  handler: { _, _ in HTTPResponse(status: 200) },
                  operations: OperationsRoutes(metrics: MetricsRegistry(), readiness: { .ready }), servesStatus: true,
                  gateway: { _ in (200, [], []) }, log: .discard)
    }

    @Test func everyOperationHasOneRouteAndItsRateClass() {
        let expected: [(String, String, ServiceOperation, RateClass)] = [
            ("POST", "/v1/tokens", .setToken, .registration), ("GET", "/v1/tokens", .listTokens, .registration),
            ("POST", "/v1/tokens/revoke", .revokeToken, .registration),
            ("POST", "/v1/spaces", .createSpace, .registration), ("POST", "/v1/spaces/remove", .removeSpace, .registration),
            ("PUT", "/v1/subscriptions", .subscribeAll, .registration), ("POST", "/v1/subscriptions", .subscribe, .registration),
            ("GET", "/v1/subscriptions", .subscriptions, .registration),
            ("POST", "/v1/subscriptions/remove", .unsubscribe, .registration),
            ("POST", "/v1/notify", .notify, .notify), ("POST", "/v1/notify/silent", .notifySilent, .notify),
            ("GET", "/v1/notifications/0123456789abcdef0123456789abcdef", .notificationStatus, .registration),
        ]
        for (method, path, operation, rateClass) in expected {
            let route = RouteTable.route(method: method, path: path)
            #expect(route?.operation == operation, "\(method) \(path)")
            #expect(route?.rateClass == rateClass, "\(method) \(path)")
        }
        let signed = RouteTable.routes.compactMap(\.operation)
        #expect(signed.count == ServiceOperation.allCases.count && Set(signed) == Set(ServiceOperation.allCases))
        let keys = RouteTable.routes.map { "\($0.method) \($0.path)" }
        #expect(Set(keys).count == keys.count)
    }

    /// `{id}` takes exactly one non-empty segment; the route's label is the template, never the id.
    @Test func aTemplateRouteTakesOneSegment() {
        #expect(RouteTable.routes(at: "/v1/notifications/abc").map(\.path) == ["/v1/notifications/{id}"])
        for path in ["/v1/notifications/", "/v1/notifications", "/v1/notifications/a/b", "/v1/notificationsabc"] {
            #expect(RouteTable.routes(at: path).isEmpty, "\(path)")
        }
        #expect(APIRoute.lastSegment(of: "/v1/notifications/abc") == "abc")
        #expect(RouteTable.allowedMethods(at: "/v1/notifications/abc") == "GET")
    }

    @Test func unsignedRoutesAreNotRateLimited() {
        for path in ["/healthz", "/readyz", "/metrics", "/v1/capabilities"] {
            let route = RouteTable.route(method: "GET", path: path)
            #expect(route != nil && route?.rateClass == nil, "\(path)")
        }
        #expect(RouteTable.route(method: "DELETE", path: "/v1/tokens") == nil)
        #expect(RouteTable.routes(at: "/v1/nothing").isEmpty)
    }

    @Test func the405AllowHeaderComesFromTheTable() {
        let router = Self.router()
        for path in Set(RouteTable.routes.map { $0.path.replacingOccurrences(of: "{id}", with: "x") }) {
            let response = router.respond(to: HTTPRequest(method: "DELETE", path: path))
            #expect(response.status == 405, "\(path)")
            let allow = response.headers.first { $0.0 == "Allow" }?.1
            #expect(allow == RouteTable.routes(at: path).map(\.method).sorted().joined(separator: ", "), "\(path)")
        }
        #expect(router.respond(to: HTTPRequest(method: "DELETE", path: "/v1/subscriptions")).headers
                .contains { $0 == ("Allow", "GET, POST, PUT") })
        #expect(router.respond(to: HTTPRequest(method: "GET", path: "/v1/nothing")).status == 404)
    }

    /// The Matrix door's routes are the injected gateway's, and 404 like an unknown path without one.
    @Test func gatewayRoutesAreServedOnlyWithAGateway() {
        let path = "/_matrix/push/v1/notify"
        #expect(Self.router().respond(to: HTTPRequest(method: "POST", path: path)).status == 200)
        let without = APIRouter(capabilities: Capabilities(version: "test", platforms: [], vapidPublicKey: "", limits: Limits()),
                                authenticator: RequestAuthenticator(), rateLimiter: RateLimiter(), handler: { _, _ in nil },
                                operations: OperationsRoutes(metrics: MetricsRegistry(), readiness: { .ready }), log: .discard)
        for method in ["GET", "POST", "DELETE"] {
            #expect(without.respond(to: HTTPRequest(method: method, path: path)).status == 404)
        }
        #expect(RouteTable.routes(at: path).allSatisfy { $0.rateClass == nil })
    }

    @Test func theAdminListenerServesTheOperationsRoutesOnly() {
        let admin = AdminRouter(operations: OperationsRoutes(metrics: MetricsRegistry(), readiness: { .ready }))
        #expect(admin.respond(to: HTTPRequest(method: "GET", path: "/healthz")).status == 200)
        #expect(admin.respond(to: HTTPRequest(method: "GET", path: "/metrics")).status == 200)
        let wrong = admin.respond(to: HTTPRequest(method: "POST", path: "/readyz"))
        #expect(wrong.status == 405 && wrong.headers.contains { $0 == ("Allow", "GET") })
        #expect(admin.respond(to: HTTPRequest(method: "GET", path: "/v1/capabilities")).status == 404)
        #expect(admin.respond(to: HTTPRequest(method: "GET", path: "/v1/tokens")).status == 404)
    }
}
