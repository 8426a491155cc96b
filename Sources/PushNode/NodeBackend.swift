import Foundation
import PushCrypto
import PushEngine
import PushHTTP
import PushProtocol
import PushService

/// What the service side hands the node once storage is open: the handler for signed routes and
/// how to close storage at shutdown.
package struct NodeBackend: Sendable {
    package var handler: APIRouter.AuthenticatedHandler
    /// Flushes and closes storage; called once, after the listeners stopped.
    package var close: @Sendable () -> Void
    /// Provider name → health (`ProviderHealth`), for the `/readyz` detail.
    package var providerHealth: @Sendable () -> [String: ProviderReadiness]
    /// The service, for the any-sync door (nil: the door stays closed).
    package var service: PushService?
    /// The status page's snapshot for a node started at the given time; nil: `/status` answers 503.
    package var status: (@Sendable (_ startedAt: Date) -> NodeStatus)?

    package init(handler: @escaping APIRouter.AuthenticatedHandler, close: @escaping @Sendable () -> Void,
                providerHealth: @escaping @Sendable () -> [String: ProviderReadiness] = { [:] }, service: PushService? = nil,
                status: (@Sendable (_ startedAt: Date) -> NodeStatus)? = nil) {
        self.handler = handler
        self.close = close
        self.providerHealth = providerHealth
        self.service = service
        self.status = status
    }
}
