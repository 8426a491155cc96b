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

    /// The operation of a signed route; nil for the unsigned ones.
    package var operation: ServiceOperation? {
        if case .service(let operation, _) = target { return operation }
        return nil
    }

    /// The budget a call draws from: its operation's; nil for unsigned routes (not rate limited).
    package var rateClass: RateClass? { operation?.rateClass }
}
