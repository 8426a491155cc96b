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
        APIRoute("POST", "/v1/tokens", .setToken) { service, request, caller in try service.setToken(body(request), caller: caller) },
        APIRoute("GET", "/v1/tokens", .listTokens) { service, _, caller in try service.listTokens(caller: caller) },
        APIRoute("POST", "/v1/tokens/revoke", .revokeToken) { service, request, caller in
            try service.revokeToken(body(request), caller: caller)
        },
        APIRoute("POST", "/v1/tokens/test", .testToken) { service, request, caller in
            try service.testToken(body(request), caller: caller)
        },
        APIRoute("POST", "/v1/spaces", .createSpace) { service, request, caller in
            try service.createSpace(body(request), caller: caller)
        },
        APIRoute("POST", "/v1/spaces/remove", .removeSpace) { service, request, caller in
            try service.removeSpace(body(request), caller: caller)
        },
        APIRoute("PUT", "/v1/subscriptions", .subscribeAll) { service, request, caller in
            try service.subscribeAll(body(request), caller: caller)
        },
        APIRoute("POST", "/v1/subscriptions", .subscribe) { service, request, caller in
            try service.subscribe(body(request), caller: caller)
        },
        APIRoute("GET", "/v1/subscriptions", .subscriptions) { service, _, caller in try service.subscriptions(caller: caller) },
        APIRoute("POST", "/v1/subscriptions/remove", .unsubscribe) { service, request, caller in
            try service.unsubscribe(body(request), caller: caller)
        },
        APIRoute("POST", "/v1/notify", .notify) { service, request, caller in try service.notify(body(request), caller: caller) },
        APIRoute("POST", "/v1/notify/silent", .notifySilent) { service, request, caller in
            try service.notifySilent(body(request), caller: caller)
        },
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

    /// A request body as the route's request type; decoding failures are PushProtocol's `APIError`s.
    private static func body<T: Decodable>(_ request: HTTPRequest) throws -> T {
        try JSON.decode(T.self, from: request.body)
    }
}
