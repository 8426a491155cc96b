import PushCrypto
import PushProtocol

/// What the service side hands the node once storage is open: the handler for signed routes,
/// their rate classes, and how to close storage at shutdown.
public struct NodeBackend: Sendable {
    public var handler: APIRouter.AuthenticatedHandler
    public var rateClass: APIRouter.RateClassifier
    /// Flushes and closes storage; called once, after the listeners stopped.
    public var close: @Sendable () -> Void

    public init(handler: @escaping APIRouter.AuthenticatedHandler, rateClass: @escaping APIRouter.RateClassifier,
                close: @escaping @Sendable () -> Void) {
        self.handler = handler
        self.rateClass = rateClass
        self.close = close
    }

    /// TEMPORARY stand-in until the service branch is merged: every signed route answers 501
    /// `not_implemented` after authentication, token/space/subscription routes draw from the
    /// registration budget and notify routes from the notify budget. The lead replaces this with
    /// `SQLiteStore` → `PushService` → `ServiceRoutes` (see `Node.Dependencies`).
    public static let unwiredStandIn = NodeBackend(
        handler: { _, _ in
            ErrorJSON.response(APIError(status: 501, code: "not_implemented",
                                        message: "the push service is not wired into this build yet"))
        },
        rateClass: { _, path in
            if path.hasPrefix("/v1/notify") { return .notify }
            return RouteTable.authenticated[path] != nil ? .registration : nil
        },
        close: {})
}
