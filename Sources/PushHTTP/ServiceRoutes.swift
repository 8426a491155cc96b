import Foundation
import PushCrypto
import PushProtocol
import PushService
import PushSupport

/// The authenticated `/v1` routes of PROTOCOL §3: method + path → decode → `PushService` → JSON.
///
/// The HTTP layer authenticates the request (RFC 9421), applies rate limits by `rateClass`, and
/// answers 404/405 when `handle` returns nil. Errors become `{"error": {"code", "message", "field"?}}`;
/// anything that is not an `APIError` becomes 500 `internal` without details.
package final class ServiceRoutes: Sendable {
    private typealias Handler = @Sendable (PushService, HTTPRequest, AccountID) throws -> any Encodable

    private struct Route: Sendable {
        var rateClass: RateClass
        var handler: Handler
    }

    private struct Key: Hashable {
        var method: String
        var path: String
    }

    private static let routes: [Key: Route] = [
        Key(method: "POST", path: "/v1/tokens"): Route(rateClass: .registration) { service, request, caller in
            try service.setToken(decode(request), caller: caller)
        },
        Key(method: "GET", path: "/v1/tokens"): Route(rateClass: .registration) { service, _, caller in
            try service.listTokens(caller: caller)
        },
        Key(method: "POST", path: "/v1/tokens/revoke"): Route(rateClass: .registration) { service, request, caller in
            try service.revokeToken(decode(request), caller: caller)
        },
        Key(method: "POST", path: "/v1/spaces"): Route(rateClass: .registration) { service, request, caller in
            try service.createSpace(decode(request), caller: caller)
        },
        Key(method: "POST", path: "/v1/spaces/remove"): Route(rateClass: .registration) { service, request, caller in
            try service.removeSpace(decode(request), caller: caller)
        },
        Key(method: "PUT", path: "/v1/subscriptions"): Route(rateClass: .registration) { service, request, caller in
            try service.subscribeAll(decode(request), caller: caller)
        },
        Key(method: "POST", path: "/v1/subscriptions"): Route(rateClass: .registration) { service, request, caller in
            try service.subscribe(decode(request), caller: caller)
        },
        Key(method: "GET", path: "/v1/subscriptions"): Route(rateClass: .registration) { service, _, caller in
            try service.subscriptions(caller: caller)
        },
        Key(method: "POST", path: "/v1/subscriptions/remove"): Route(rateClass: .registration) { service, request, caller in
            try service.unsubscribe(decode(request), caller: caller)
        },
        Key(method: "POST", path: "/v1/notify"): Route(rateClass: .notify) { service, request, caller in
            try service.notify(decode(request), caller: caller)
        },
        Key(method: "POST", path: "/v1/notify/silent"): Route(rateClass: .notify) { service, request, caller in
            try service.notifySilent(decode(request), caller: caller)
        },
    ]

    private let service: PushService
    private let onInternalError: @Sendable (any Error) -> Void

    package convenience init(service: PushService) {
        self.init(service: service, onInternalError: { _ in })
    }

    /// `onInternalError` sees each unexpected error answered as 500 (for a log line; store errors carry
    /// SQLite's message and code, never bound values, so they hold no tokens or payloads).
    package init(service: PushService, onInternalError: @escaping @Sendable (any Error) -> Void) {
        self.service = service
        self.onInternalError = onInternalError
    }

    /// An authenticated `/v1` request (every route but `GET /v1/capabilities`). nil = no route for
    /// this method + path (the HTTP layer answers 404/405). Errors become the PROTOCOL error JSON.
    package func handle(_ request: HTTPRequest, caller: AccountID) -> HTTPResponse? {
        guard let route = Self.routes[Key(method: request.method, path: request.path)] else { return nil }
        do {
            return try Self.json(status: 200, route.handler(service, request, caller))
        } catch let error as APIError {
            return Self.errorResponse(error)
        } catch {
            onInternalError(error)
            return Self.errorResponse(.internalError)
        }
    }

    /// Which rate-limit class a route belongs to; nil for paths that are not service routes.
    package static func rateClass(method: String, path: String) -> RateClass? {
        routes[Key(method: method, path: path)]?.rateClass
    }

    /// The methods a service path answers (for a 405's `Allow`); empty for unknown paths.
    package static func methods(forPath path: String) -> [String] {
        routes.keys.filter { $0.path == path }.map(\.method).sorted()
    }

    /// The PROTOCOL error body for `error`, with `Retry-After` when it has one.
    package static func errorResponse(_ error: APIError) -> HTTPResponse {
        var response = (try? json(status: error.status, ErrorBody(error))) ?? HTTPResponse(status: 500)
        if let retryAfter = error.retryAfter { response.headers.append(("Retry-After", String(retryAfter))) }
        return response
    }

    private static func json(status: Int, _ value: any Encodable) throws -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", "application/json")], body: try WireEncoder.encode(value))
    }

    private static func decode<T: Decodable>(_ request: HTTPRequest) throws -> T {
        try WireDecoder.decode(T.self, from: request.body)
    }
}

/// `{"error": {"code", "message", "field"?}}`.
private struct ErrorBody: Encodable {
    struct Detail: Encodable {
        var code: String
        var message: String
        var field: String?
    }

    var error: Detail

    init(_ error: APIError) {
        // An internal error never carries details, whatever was put in it.
        let isInternal = error.code == .internal
        self.error = Detail(code: error.code.rawValue, message: isInternal ? "internal error" : error.message,
                            field: isInternal ? nil : error.field)
    }
}
