import Foundation
import PushCrypto
import PushEngine
import PushHTTP
import PushMatrix
import PushProtocol
import PushService
import PushSupport

/// What the service side hands the node once storage is open: the handler for signed routes and
/// the long-running parts behind it (the store, the delivery engine), which the node starts and
/// drains with its doors.
package struct NodeBackend: Sendable {
    package var handler: APIRouter.AuthenticatedHandler
    /// In start order: the store (drained last, by `close`), then the delivery engine when there is one.
    package var parts: [NodeServices.Part]
    /// Provider name → health (`ProviderHealth`), for the `/readyz` detail.
    package var providerHealth: @Sendable () -> [String: ProviderReadiness]
    /// The service, for the any-sync door (nil: the door stays closed).
    package var service: PushService?
    /// The status page's snapshot for a node started at the given time; nil: `/status` answers 503.
    package var status: (@Sendable (_ startedAt: Date) -> NodeStatus)?
    /// The Matrix Push Gateway door, when `matrix.enabled`.
    package var matrix: MatrixDoor?

    /// - Parameters:
    ///   - close: flushes and closes storage; called once, after the doors and the engine drained.
    ///   - delivery: the delivery engine, started by the node after the store.
    package init(handler: @escaping APIRouter.AuthenticatedHandler, close: @escaping @Sendable () -> Void,
                delivery: (any LongRunning)? = nil,
                providerHealth: @escaping @Sendable () -> [String: ProviderReadiness] = { [:] }, service: PushService? = nil,
                status: (@Sendable (_ startedAt: Date) -> NodeStatus)? = nil, matrix: MatrixDoor? = nil) {
        self.handler = handler
        parts = [NodeServices.Part(.storage, StoreClosing(close: close))] + (delivery.map { [NodeServices.Part(.delivery, $0)] } ?? [])
        self.providerHealth = providerHealth
        self.service = service
        self.status = status
        self.matrix = matrix
    }
}

/// Storage as a part of the node: nothing to start; drained last, by closing the store, which
/// drains its own parts (the SQLite writer commits what it holds first).
final class StoreClosing: LongRunning {
    let name = "storage"
    private let close: @Sendable () -> Void
    private let closed = Protected(false)

    init(close: @escaping @Sendable () -> Void) { self.close = close }

    func start() {}
    func stop() {}

    /// Closes the store, once; the timeout does not apply: an accepted write is never dropped.
    @discardableResult
    func drain(timeout: Double) -> Bool {
        guard closed.withLock({ closed in
            defer { closed = true }
            return !closed
        }) else { return true }
        close()
        return true
    }
}
