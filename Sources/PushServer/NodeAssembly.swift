import Foundation
import PushProtocol

/// The production wiring of a node: SQLite store → `PushService` → `ServiceRoutes`, and the
/// delivery engine draining the store's outbox to the configured providers.
extension Node.Dependencies {
    public static let production = Node.Dependencies(
        openBackend: { config, platforms, metrics, log in
            try NodeAssembly.openBackend(config: config, platforms: platforms, metrics: metrics, log: log)
        },
        vapidPublicKey: { config in try VAPIDKeyFile.loadOrCreate(config: config).publicKeyBase64URL })
}

enum NodeAssembly {
    struct UnsupportedStorage: Error, CustomStringConvertible {
        let description = "storage.driver: postgres is not available in this build"
    }

    static let databaseName = "pushnode.sqlite"

    static func openBackend(config: NodeConfig, platforms: Set<Platform>, metrics: MetricsRegistry,
                            log: LogSink) throws -> NodeBackend {
        guard config.storage.driver == .sqlite else { throw UnsupportedStorage() }
        let store = try SQLiteStore(path: config.dataDir + "/" + databaseName)
        let engine: DeliveryEngine
        do {
            let assembly = try DeliveryAssembly(config: config, platforms: platforms)
            engine = DeliveryEngine(store: store, routes: assembly.routes, transport: assembly.transport,
                                    configuration: DeliveryEngine.Configuration(config.delivery), metrics: metrics, log: log)
        } catch {
            store.close()
            throw error
        }
        let service = PushService(store: store, configuration: .init(
            limits: config.limits, requireSpaceRegistration: config.spaces.requireRegistration,
            enabledPlatforms: platforms, allowPrivateEndpoints: config.webpush.allowPrivateEndpoints,
            deliveriesQueued: { engine.wake($0) }))
        let routes = ServiceRoutes(service: service)
        engine.start()
        let shutdownTimeout = config.server.shutdownTimeout
        return NodeBackend(handler: { routes.handle($0, caller: $1) },
                           rateClass: { ServiceRoutes.rateClass(method: $0, path: $1) },
                           close: {
                               engine.stop(timeout: shutdownTimeout)
                               store.close()
                           },
                           providerHealth: { engine.health.snapshot })
    }
}
