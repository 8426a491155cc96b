import PushCrypto
import PushProtocol
import PushService
import PushSupport

/// The API listener's router: operations routes, `GET /v1/capabilities`, and every signed `/v1`
/// route of `RouteTable` — authenticated, rate limited per account, then passed to the injected
/// service handler. Unknown paths answer 404 `not_found`, known paths with another method 405
/// `method_not_allowed`; every error is PROTOCOL error JSON. One log line and one metrics sample
/// per request (route label, never the raw path, which might carry secrets).
package final class APIRouter: HTTPResponder {
    /// The service: answers an authenticated request, or nil when it has no route for it.
    package typealias AuthenticatedHandler = @Sendable (HTTPRequest, AccountID) -> HTTPResponse?
    /// The rate class of a route (method, path), or nil when it is not rate limited.
    package typealias RateClassifier = @Sendable (_ method: String, _ path: String) -> RateClass?

    private let capabilitiesBody: [UInt8]
    private let authenticator: RequestAuthenticator
    private let rateLimiter: RateLimiter
    private let handler: AuthenticatedHandler
    private let rateClass: RateClassifier
    private let operations: OperationsRoutes
    private let servesMetrics: Bool
    private let metrics: HTTPMetrics
    private let log: LogSink
    private let now: @Sendable () -> Double

    /// - Parameter servesMetrics: false when an admin listener serves `/metrics` instead.
    package init(capabilities: Capabilities, authenticator: RequestAuthenticator, rateLimiter: RateLimiter,
                handler: @escaping AuthenticatedHandler, rateClass: @escaping RateClassifier,
                operations: OperationsRoutes, servesMetrics: Bool = true, log: LogSink = .standardError,
                now: @escaping @Sendable () -> Double = Clocks.monotonicSeconds) {
        self.capabilitiesBody = capabilities.json
        self.authenticator = authenticator
        self.rateLimiter = rateLimiter
        self.handler = handler
        self.rateClass = rateClass
        self.operations = operations
        self.servesMetrics = servesMetrics
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
        let error = APIError(status: 413, code: .tooLarge, message: "request body is over \(limit) bytes")
        let outcome = Outcome(response: ErrorJSON.response(error), route: routeLabel(request.path), account: nil)
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
        guard let methods = RouteTable.methods(for: path), path != "/metrics" || servesMetrics else {
            return Outcome(response: ErrorJSON.response(APIError(status: 404, code: .notFound, message: "no such route")),
                           route: label, account: nil)
        }
        guard methods.contains(request.method) else {
            let error = APIError(status: 405, code: .methodNotAllowed, message: "\(request.method) is not allowed here")
            return Outcome(response: ErrorJSON.response(error, extraHeaders: [("Allow", methods.sorted().joined(separator: ", "))]),
                           route: label, account: nil)
        }
        switch path {
        case "/healthz": return Outcome(response: operations.health(), route: label, account: nil)
        case "/readyz": return Outcome(response: operations.ready(), route: label, account: nil)
        case "/metrics": return Outcome(response: operations.renderMetrics(), route: label, account: nil)
        case "/v1/capabilities":
            return Outcome(response: HTTPResponse(status: 200, headers: [("Content-Type", "application/json")], body: capabilitiesBody),
                           route: label, account: nil)
        default: return authenticated(request, label: label)
        }
    }

    private func authenticated(_ request: HTTPRequest, label: String) -> Outcome {
        let account: AccountID
        do {
            account = try authenticator.authenticate(request)
        } catch {
            metrics.authFailures.increment(error.code.rawValue)
            return Outcome(response: ErrorJSON.response(error), route: label, account: nil)
        }
        if let rateClass = rateClass(request.method, request.path),
           case .denied(let retryAfter) = rateLimiter.take(account: account, rateClass: rateClass) {
            metrics.rateLimited.increment(rateClass.rawValue)
            let error = APIError(status: 429, code: .rateLimited, message: "too many requests; retry later", retryAfter: retryAfter)
            return Outcome(response: ErrorJSON.response(error), route: label, account: account)
        }
        guard let response = handler(request, account) else {
            return Outcome(response: ErrorJSON.response(APIError(status: 404, code: .notFound, message: "no such route")),
                           route: label, account: account)
        }
        return Outcome(response: response, route: label, account: account)
    }

    /// The path when it is a known route, else `other`: bounded label values, no raw paths.
    private func routeLabel(_ path: String) -> String { RouteTable.methods(for: path) != nil ? path : "other" }

    private func finish(_ request: HTTPRequest, _ outcome: Outcome, started: Double) {
        let seconds = max(0, now() - started)
        metrics.requests.increment(outcome.route, String(outcome.response.status))
        metrics.latency.observe(seconds, outcome.route)
        var line = "event=http method=\(Self.safeToken(request.method)) route=\(outcome.route) status=\(outcome.response.status)"
        line += " duration_ms=\((seconds * 1_000_000).rounded() / 1000) bytes_in=\(request.body.count) bytes_out=\(outcome.response.body.count)"
        if let account = outcome.account { line += " account=\(account.string.prefix(8))" }
        log(line)
    }

    /// The method as logged: letters only, so a client cannot forge log fields.
    private static func safeToken(_ text: String) -> String {
        let cleaned = text.prefix(16).filter { $0.isASCII && $0.isLetter }
        return cleaned.isEmpty ? "-" : String(cleaned)
    }
}
