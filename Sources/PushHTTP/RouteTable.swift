import PushCrypto
import PushProtocol
import PushService

/// Every route of the API listener (PROTOCOL §3.3) — the one list. It drives the routers' 404 and
/// 405 (with `Allow`), the rate class of each signed route (its `ServiceOperation`'s) and the service
/// call `ServiceRoutes` makes.
package enum RouteTable {
    package static let routes: [APIRoute] = [
        APIRoute("GET", "/healthz", .operations(.health)),
        APIRoute("GET", "/readyz", .operations(.readiness)),
        APIRoute("GET", "/metrics", .operations(.metrics)),
        APIRoute("GET", "/status", .operations(.statusPage)),
        APIRoute("GET", "/status.json", .operations(.statusJSON)),
        APIRoute("GET", "/v1/capabilities", .capabilities),
        route("POST", "/v1/tokens", .setToken) { try $0.setToken($1, caller: $2) },
        APIRoute("GET", "/v1/tokens", .listTokens) { service, _, caller in try service.listTokens(caller: caller) },
        route("POST", "/v1/tokens/revoke", .revokeToken) { try $0.revokeToken($1, caller: $2) },
        route("POST", "/v1/tokens/test", .testToken) { try $0.testToken($1, caller: $2) },
        route("POST", "/v1/spaces", .createSpace) { try $0.createSpace($1, caller: $2) },
        route("POST", "/v1/spaces/remove", .removeSpace) { try $0.removeSpace($1, caller: $2) },
        route("PUT", "/v1/subscriptions", .subscribeAll) { try $0.subscribeAll($1, caller: $2) },
        route("POST", "/v1/subscriptions", .subscribe) { try $0.subscribe($1, caller: $2) },
        APIRoute("GET", "/v1/subscriptions", .subscriptions) { service, _, caller in try service.subscriptions(caller: caller) },
        route("POST", "/v1/subscriptions/remove", .unsubscribe) { try $0.unsubscribe($1, caller: $2) },
        route("POST", "/v1/notify", .notify) { try $0.notify($1, caller: $2) },
        route("POST", "/v1/notify/silent", .notifySilent) { try $0.notifySilent($1, caller: $2) },
        APIRoute("GET", "/v1/notifications/{id}", .notificationStatus) { service, request, caller in
            try service.notificationStatus(id: APIRoute.lastSegment(of: request.path), caller: caller)
        },
        // The Matrix Push Gateway door (PROTOCOL §10), when `matrix.enabled`.
        APIRoute("GET", "/_matrix/push/v1/notify", .gateway),
        APIRoute("POST", "/_matrix/push/v1/notify", .gateway),
    ]

    private static let byPath: [String: [APIRoute]] = Dictionary(grouping: routes.filter { !$0.isTemplate }, by: \.path)
    private static let templates = routes.filter(\.isTemplate)

    /// The routes on `path` (one per method): its exact routes, else those of the template it fills;
    /// empty when the path is unknown.
    package static func routes(at path: String) -> [APIRoute] { byPath[path] ?? templates.filter { $0.matches(path) } }

    /// The route of this method on this path, or nil.
    package static func route(method: String, path: String) -> APIRoute? {
        routes(at: path).first { $0.method == method }
    }

    /// The `Allow` value of a 405 on `path`: its methods, sorted.
    package static func allowedMethods(at path: String) -> String {
        routes(at: path).map(\.method).sorted().joined(separator: ", ")
    }

    /// A signed route whose JSON body is the request `call` takes; decoding failures are
    /// PushProtocol's `APIError`s.
    private static func route<Request: Decodable & Sendable>(
        _ method: String, _ path: String, _ operation: ServiceOperation,
        _ call: @escaping @Sendable (PushService, Request, AccountID) throws -> any Encodable
    ) -> APIRoute {
        APIRoute(method, path, operation) { service, request, caller in
            try call(service, JSON.decode(Request.self, from: request.body), caller)
        }
    }
}
