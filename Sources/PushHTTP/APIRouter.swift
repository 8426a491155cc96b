import PushCrypto
import PushProtocol
import PushService
import PushSupport

/// The API listener's router over `RouteTable`: operations routes, `GET /v1/capabilities`, and every
/// signed `/v1` route — authenticated, rate limited per account by its operation's class, then passed
/// to the injected service handler. Unknown paths answer 404 `not_found`, known paths with another
/// method 405 `method_not_allowed` with `Allow`; every error is rendered by `ErrorJSON`. One log line
/// and one metrics sample per request (route label, never the raw path, which might carry secrets).
package final class APIRouter: HTTPResponder {
    /// The service: answers an authenticated request, or nil when it has no route for it.
    package typealias AuthenticatedHandler = @Sendable (HTTPRequest, AccountID) -> HTTPResponse?
    /// A door of another protocol on this listener: answers the `gateway` routes with a status,
    /// headers and a body, sent as they are.
    package typealias GatewayHandler = @Sendable (HTTPRequest) -> (status: Int, headers: [(String, String)], body: [UInt8])

    private let capabilitiesBody: [UInt8]
    private let authenticator: RequestAuthenticator
    private let rateLimiter: RateLimiter
    private let handler: AuthenticatedHandler
    private let gateway: GatewayHandler?
    private let operations: OperationsRoutes
    private let servesMetrics: Bool
    private let servesStatus: Bool
    private let metrics: HTTPMetrics
    private let log: LogSink
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - servesMetrics: false when an admin listener serves `/metrics` instead.
    ///   - servesStatus: whether `/status` and `/status.json` are served here too
    ///     (`server.statusOnPublicListener`); else they are 404 like any unknown path.
    ///   - gateway: the Matrix door, when it is on; else its routes are 404 like any unknown path.
    package init(capabilities: Capabilities, authenticator: RequestAuthenticator, rateLimiter: RateLimiter,
                handler: @escaping AuthenticatedHandler, operations: OperationsRoutes, servesMetrics: Bool = true,
                servesStatus: Bool = false, gateway: GatewayHandler? = nil,
                log: LogSink = .standardError,
                now: @escaping @Sendable () -> Double = Clocks.monotonicSeconds) {
        self.capabilitiesBody = capabilities.json
        self.authenticator = authenticator
        self.rateLimiter = rateLimiter
        self.handler = handler
        self.gateway = gateway
        self.operations = operations
        self.servesMetrics = servesMetrics
        self.servesStatus = servesStatus
        self.metrics = HTTPMetrics(registry: operations.metrics)
        self.log = log
        self.now = now
    }

    package func respond(to request: HTTPRequest) -> HTTPResponse {
        let started = now()
        let outcome = route(request)
        finish(request, outcome, started: started)
        return outcome.response
    }

    package func respondTooLarge(to request: HTTPRequest, limit: Int) -> HTTPResponse {
        let outcome = Outcome(response: ErrorJSON.response(.tooLarge, "request body is over \(limit) bytes"),
                              route: routeLabel(request.path), account: nil)
        finish(request, outcome, started: now())
        return outcome.response
    }

    struct Outcome {
        package var response: HTTPResponse
        var route: String
        package var account: AccountID?
    }

    private func route(_ request: HTTPRequest) -> Outcome {
        let path = request.path
        let label = routeLabel(path)
        guard let known = RouteTable.routes(at: path).first, serves(known) else {
            return Outcome(response: ErrorJSON.response(.notFound, "no such route"), route: label, account: nil)
        }
        guard let route = RouteTable.route(method: request.method, path: path) else {
            let response = ErrorJSON.response(.methodNotAllowed, "\(request.method) is not allowed here",
                                              extraHeaders: [("Allow", RouteTable.allowedMethods(at: path))])
            return Outcome(response: response, route: label, account: nil)
        }
        switch route.target {
        case .operations(let endpoint):
            return Outcome(response: operations.respond(endpoint), route: label, account: nil)
        case .capabilities:
            return Outcome(response: HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: capabilitiesBody),
                           route: label, account: nil)
        case .service(let operation, _):
            return authenticated(request, rateClass: operation.rateClass, label: label)
        case .gateway:
            guard let gateway else { return Outcome(response: ErrorJSON.response(.notFound, "no such route"), route: label, account: nil) }
            let answer = gateway(request)
            return Outcome(response: HTTPResponse(status: answer.status, headers: answer.headers, body: answer.body),
                           route: label, account: nil)
        }
    }

    /// Whether this listener answers `route` (the node may keep some operations routes to the admin listener).
    private func serves(_ route: APIRoute) -> Bool {
        switch route.target {
        case .operations(.metrics): servesMetrics
        case .operations(.statusPage), .operations(.statusJSON): servesStatus
        case .gateway: gateway != nil
        default: true
        }
    }

    private func authenticated(_ request: HTTPRequest, rateClass: RateClass, label: String) -> Outcome {
        let account: AccountID
        do {
            account = try authenticator.authenticate(request)
        } catch {
            // A replay window that could not be checked is a storage fault, not a failed authentication.
            if error.code != .storageUnavailable { metrics.authFailures.increment(error.code.rawValue) }
            return Outcome(response: ErrorJSON.response(error), route: label, account: nil)
        }
        if case .denied(let retryAfter) = rateLimiter.take(account: account, rateClass: rateClass, client: request.client) {
            metrics.rateLimited.increment(rateClass.rawValue)
            let response = ErrorJSON.response(.rateLimited, "too many requests; retry later", retryAfter: retryAfter)
            return Outcome(response: response, route: label, account: account)
        }
        guard let response = handler(request, account) else {
            return Outcome(response: ErrorJSON.response(.notFound, "no such route"), route: label, account: account)
        }
        return Outcome(response: response, route: label, account: account)
    }

    /// The route's path (a template for `{id}` routes) when it is a known route, else `other`:
    /// bounded label values, no raw paths and no ids.
    private func routeLabel(_ path: String) -> String { RouteTable.routes(at: path).first?.path ?? "other" }

    private func finish(_ request: HTTPRequest, _ outcome: Outcome, started: Double) {
        let seconds = max(0, now() - started)
        metrics.requests.increment(outcome.route, String(outcome.response.status))
        metrics.latency.observe(seconds, outcome.route)
        var record = LogRecord(.info, "http", [
            "method": "\(Self.safeToken(request.method))", "route": "\(outcome.route)", "status": .int(outcome.response.status),
            "duration_ms": .double((seconds * 1_000_000).rounded() / 1000), "bytes_in": .int(request.body.count),
            "bytes_out": .int(outcome.response.body.count),
        ])
        if let account = outcome.account { record.fields.append(LogField("account", "\(account.string.prefix(8))")) }
        log(record)
    }

    /// The method as logged: letters only, so a client cannot forge log fields.
    private static func safeToken(_ text: String) -> String {
        let cleaned = text.prefix(16).filter { $0.isASCII && $0.isLetter }
        return cleaned.isEmpty ? "-" : String(cleaned)
    }
}
