import Foundation
import PushProtocol

/// The production wiring of a node: SQLite store → `PushService` → `ServiceRoutes`.
extension Node.Dependencies {
    public static let production = Node.Dependencies(
        openBackend: { config, platforms, _, _ in try NodeAssembly.openBackend(config: config, platforms: platforms) },
        vapidPublicKey: { config in try VAPIDKeyFile.loadOrCreate(config: config).publicKeyBase64URL },
        replayCache: { config in try StoreFactory.replayCache(config: config) })
}

enum NodeAssembly {
    struct UnsupportedStorage: Error, CustomStringConvertible {
        let description = "storage.driver: postgres is not available in this build"
    }

    static let databaseName = "pushnode.sqlite"

    static func openBackend(config: NodeConfig, platforms: Set<Platform>) throws -> NodeBackend {
        let store = try StoreFactory.open(config: config)
        let service = PushService(store: store, configuration: .init(
            limits: config.limits, requireSpaceRegistration: config.spaces.requireRegistration,
            enabledPlatforms: platforms, allowPrivateEndpoints: config.webpush.allowPrivateEndpoints))
        let routes = ServiceRoutes(service: service)
        return NodeBackend(handler: { routes.handle($0, caller: $1) },
                           rateClass: { ServiceRoutes.rateClass(method: $0, path: $1) },
                           close: { store.close() })
    }
}
