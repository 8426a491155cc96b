import Foundation
import PushConfig
import PushEngine
import PushHTTP
import PushMatrix
import PushMetrics
import PushProtocol
import PushService
import PushStore
import PushSupport

/// The production wiring of a node: SQLite store → `PushService` → `ServiceRoutes`, and the
/// delivery engine draining the store's outbox to the configured providers.
extension Node.Dependencies {
    package static let production = Node.Dependencies(
        openBackend: { config, platforms, metrics, log, storage in
            try NodeAssembly.openBackend(config: config, platforms: platforms, metrics: metrics, log: log, storage: storage)
        },
        vapidPublicKey: { config, app in try VAPIDKeyFile.loadOrCreate(app: app, config: config).publicKeyBase64URL },
        replayCache: { config in try StoreFactory.replayCache(config: config) })
}

enum NodeAssembly {
    static func openBackend(config: NodeConfig, platforms: Set<Platform>, metrics: MetricsRegistry,
                            log: LogSink, storage: StorageHealth) throws -> NodeBackend {
        let store = try StoreFactory.open(config: config)
        if let warning = UnconfiguredAppRegistrations.warning(counts: (try? store.registrationCountsByApp()) ?? [:], config: config) {
            log(warning)
        }
        // With the Matrix door on, the devices the engine prunes are remembered for its answers.
        let dead = config.matrix.enabled ? DeadPushkeys() : nil
        let outbox: any OutboxStore = dead.map { dead in PruneReportingOutbox(store) { dead.insert($0) } } ?? store
        let engine: DeliveryEngine
        let testPush: RegistrationTestPush
        do {
            let assembly = try DeliveryAssembly(config: config, platforms: config.anyAppPlatforms,
                                                sharedCredentials: store as? any SharedCredentialStore)
            testPush = RegistrationTestPush(routes: assembly.routes, transport: assembly.transport, store: store, log: log)
            assembly.transport.registerMetrics(in: metrics)
            var configuration = DeliveryEngine.Configuration(config.delivery)
            configuration.claimRenewInterval = max(0.5, config.storage.claimLease / 3)
            configuration.summaryInterval = config.log.summaryInterval
            engine = DeliveryEngine(store: outbox, routes: assembly.routes, transport: assembly.transport,
                                    configuration: configuration, metrics: metrics, log: log)
        } catch {
            store.close()
            throw error
        }
        var configuration = PushService.Configuration(
            limits: config.limits, requireSpaceRegistration: config.spaces.requireRegistration,
            enabledPlatforms: platforms,
            apps: Dictionary(uniqueKeysWithValues: config.apps.map { ($0.id, $0.enabledPlatforms) }),
            allowPrivateEndpoints: config.webpush.allowPrivateEndpoints,
            deliveriesQueued: { engine.wake($0) })
        configuration.testPush = { testPush($0) }
        let service = PushService(store: store, configuration: configuration, storageHealth: storage)
        ServiceMetrics.register(service, in: metrics)
        let routes = ServiceRoutes(service: service)
        // Deliveries queued by another node (PostgreSQL) wake this node's lanes too.
        store.onEnqueue { engine.wake(Set(Provider.allCases)) }
        let status = NodeStatusSource(engine: engine, store: store, storageDriver: config.storage.driver.rawValue,
                                      now: { Date() })
        let matrix = dead.map { MatrixDoor(configuration: config.matrix, service: service, dead: $0, metrics: metrics, log: log) }
        if matrix != nil {
            for route in config.matrix.apps where !service.sends(route.platform, app: route.app) {
                log(.warn, "matrix_app_unconfigured", ["appId": "\(route.appId)", "app": "\(route.app)",
                                                       "platform": "\(route.platform.rawValue)"])
            }
        }
        return NodeBackend(handler: { routes.handle($0, caller: $1) },
                           close: { store.close() }, delivery: engine,
                           providerHealth: { ProviderReadiness.byName(engine.health.snapshot) }, service: service,
                           status: { status.snapshot(startedAt: $0) }, matrix: matrix)
    }
}
