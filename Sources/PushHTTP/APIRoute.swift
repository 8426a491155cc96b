import PushCrypto
import PushService

/// One route of the API listener: a method and path, and what answers it.
package struct APIRoute: Sendable {
    /// Decodes the body of a signed route and calls the service as the authenticated caller.
    package typealias ServiceCall = @Sendable (PushService, HTTPRequest, AccountID) throws -> any Encodable

    package enum Target: Sendable {
        /// Unsigned, answered by `OperationsRoutes` (on the admin listener too).
        case operations(OperationsRoutes.Endpoint)
        /// `GET /v1/capabilities`: unsigned, answered by the router.
        case capabilities
        /// Signed: authenticated, rate limited by the operation's class, answered by `ServiceRoutes`.
        case service(ServiceOperation, ServiceCall)
        /// A door of another protocol mounted on this listener (the Matrix Push Gateway door): its
        /// own parsing, checks and answers, through the router's injected `gateway`; 404 when
        /// the node has none.
        case gateway
    }

    package let method: String
    package let path: String
    package let target: Target

    package init(_ method: String, _ path: String, _ target: Target) {
        self.method = method
        self.path = path
        self.target = target
    }

    /// A signed route of the service.
    package init(_ method: String, _ path: String, _ operation: ServiceOperation, _ call: @escaping ServiceCall) {
        self.init(method, path, .service(operation, call))
    }

    /// Whether the path ends in a `{id}` segment that any one non-empty segment fills.
    package var isTemplate: Bool { path.hasSuffix("/{id}") }

    /// Whether `requested` is this route's path, or fills its `{id}`.
    package func matches(_ requested: String) -> Bool {
        guard isTemplate else { return requested == path }
        let prefix = path.dropLast("{id}".count)
        guard requested.hasPrefix(prefix) else { return false }
        let rest = requested.dropFirst(prefix.count)
        return !rest.isEmpty && !rest.contains("/")
    }

    /// The last path segment (a template's `{id}`).
    package static func lastSegment(of path: String) -> String {
        String(path.split(separator: "/", omittingEmptySubsequences: false).last ?? "")
    }

    /// The operation of a signed route; nil for the unsigned ones.
    package var operation: ServiceOperation? {
        if case .service(let operation, _) = target { return operation }
        return nil
    }

    /// The budget a call draws from: its operation's; nil for unsigned routes (not rate limited).
    package var rateClass: RateClass? { operation?.rateClass }
}
