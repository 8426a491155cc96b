import Foundation
import PushAnySync
import PushConfig
import PushCrypto
import PushHTTP
import PushMetrics
import PushNet
import PushProtocol
import PushService
import PushStore
import PushSupport

/// The assembled node: config → listeners → storage and service → ready; and back down on
/// SIGTERM/SIGINT: stop accepting, finish in-flight requests (bounded), finish the deliveries in
/// flight (bounded), close storage — in the order `NodeServices` writes down.
///
/// Listeners start first, so `/healthz` answers and `/readyz` says 503 `starting` while storage
/// opens; signed routes answer 503 until then.
package final class Node: Sendable {
    package static let version = NodeVersion.current

    /// The parts built outside this module: `pushnode serve` passes the real ones, tests their own.
    package struct Dependencies: Sendable {
        /// Opens storage and builds the service (and delivery) for the enabled platforms; called
        /// once by `start`, with the node's metrics registry, log and storage health (for the service).
        package var openBackend: @Sendable (NodeConfig, Set<Platform>, MetricsRegistry, LogSink, StorageHealth) throws -> NodeBackend
        /// An app's VAPID public key for `/v1/capabilities` (base64url uncompressed P-256).
        package var vapidPublicKey: @Sendable (NodeConfig, NodeConfig.App) throws -> String
        /// A replay cache shared with other nodes (postgres mode); nil keeps the in-memory one.
        package var replayCache: @Sendable (NodeConfig) throws -> (any ReplayCache)?

        package init(openBackend: @escaping @Sendable (NodeConfig, Set<Platform>, MetricsRegistry, LogSink, StorageHealth) throws -> NodeBackend,
                    vapidPublicKey: @escaping @Sendable (NodeConfig, NodeConfig.App) throws -> String,
                    replayCache: @escaping @Sendable (NodeConfig) throws -> (any ReplayCache)? = { _ in nil }) {
            self.openBackend = openBackend
            self.vapidPublicKey = vapidPublicKey
            self.replayCache = replayCache
        }
    }

    /// A failure to start, naming what failed.
    package struct StartError: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    private struct State {
        var readiness = OperationsRoutes.Readiness.starting
        var backend: NodeBackend?
        var api: HTTPServer?
        var admin: HTTPServer?
        var anysync: AnySyncDoor?
        var started = false
        var shutDown = false
    }

    package let config: NodeConfig
    package let metrics = MetricsRegistry()
    private let dependencies: Dependencies
    private let log: LogSink
    private let state = Protected(State())
    /// The listeners, the store, the engine and the any-sync door, as they started.
    private let services: NodeServices
    /// Shared by the HTTP and any-sync doors.
    private let rateLimiter: RateLimiter
    /// Whether storage works, as the last store call found it: `/readyz` and the storage gauges.
    package let storage: StorageHealth
    /// When this node was made: the status page's uptime counts from here.
    private let startedAt = Date()

    package init(config: NodeConfig, dependencies: Dependencies = .production, log: LogSink = .standardError) {
        self.config = config
        self.dependencies = dependencies
        self.log = log
        self.rateLimiter = RateLimiter(policy: config.rateLimits, newAccountsPerAddress: config.limits.newAccountsPerAddress)
        services = NodeServices(drainTimeout: config.server.shutdownTimeout)
        let failures = metrics.counter("pushnode_storage_failures_total", help: "Store calls (and replay checks) that failed.")
        let storage = StorageHealth(log: log, onFailure: { failures.increment() })
        self.storage = storage
        metrics.gauge("pushnode_storage_unavailable", help: "1 while storage is failing (from a failed read to the next read that succeeds, from a failed write to the next write that does).",
                      of: storage) { $0.isAvailable ? 0 : 1 }
        ProcessMetrics.register(in: metrics, while: self)
    }

    /// The API listener's bound port (0 before `start`).
    package var port: Int { state.withLock { $0.api?.port ?? 0 } }
    /// The admin listener's bound port, when there is one.
    package var adminPort: Int? { state.withLock { $0.admin?.port } }
    package var readiness: OperationsRoutes.Readiness { state.withLock { $0.readiness } }
    /// The any-sync door's bound port, when it is open.
    package var anysyncPort: Int? { state.withLock { $0.anysync?.port } }

    /// Starts the listeners, then opens storage and starts what runs behind it (the engine, the
    /// any-sync door). Throws (with everything started drained again) when credentials, the data
    /// directory, a listener or storage fail.
    package func start() throws(StartError) {
        guard state.withLock({ state in
            defer { state.started = true }
            return !state.started
        }) else { throw StartError(description: "the node was already started") }
        let issues = config.credentialIssues()
        guard issues.isEmpty else { throw StartError(description: issues.joined(separator: "\n")) }
        for warning in config.unconfiguredProviderWarnings { log(warning) }
        do {
            try FileManager.default.createDirectory(atPath: config.dataDir, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw StartError(description: "dataDir: cannot create \(config.dataDir): \(error.localizedDescription)")
        }
        let platforms = config.enabledPlatforms
        var apps: [Capabilities.App] = []
        for (index, app) in config.allApps.enumerated() {
            do {
                apps.append(Capabilities.App(id: app.id, platforms: app.enabledPlatforms,
                                             vapidPublicKey: try dependencies.vapidPublicKey(config, app)))
            } catch {
                throw StartError(description: "\(NodeConfig.keyPrefix(ofApp: index))webpush.vapidKeyPath: \(error)")
            }
        }
        let peerKey: Ed25519.KeyPair?
        do { peerKey = config.anysync.listen == nil ? nil : try AnySyncPeerKey.loadOrCreate(config: config) } catch {
            throw StartError(description: "\(error)")
        }
        let sharedReplayCache: (any ReplayCache)?
        let ownReplayCache: any ReplayCache
        do {
            sharedReplayCache = try dependencies.replayCache(config)
            ownReplayCache = try sharedReplayCache ?? nodeReplayCache()
        } catch {
            throw StartError(description: "storage: \(error)")
        }
        let operations = OperationsRoutes(metrics: metrics, readiness: { [state] in state.withLock { $0.readiness } },
                                          providers: { [state] in state.withLock { $0.backend }?.providerHealth() ?? [:] },
                                          probeStorage: { [state, storage] in
                                              storage.isAvailable || (state.withLock { $0.backend }?.service?.probeStorage() ?? false)
                                          },
                                          status: { [state, startedAt] in state.withLock { $0.backend }?.status?(startedAt) })
        let router = makeRouter(operations: operations, apps: apps,
                                replayCache: ownReplayCache, shared: sharedReplayCache != nil, peerID: peerKey.map { PeerID.string(publicKey: $0.publicKey) })
        try startListeners(router: router, operations: operations)

        let backend: NodeBackend
        do { backend = try dependencies.openBackend(config, platforms, metrics, log, storage) } catch {
            stopServices()
            throw StartError(description: "storage: \(error)")
        }
        do {
            for part in backend.parts { try services.start(part) }
            if let peerKey, let service = backend.service, let doorConfiguration = AnySyncDoor.Configuration(config) {
                let door = try AnySyncDoor(doorConfiguration, peerKey: peerKey, service: service, rateLimiter: rateLimiter, log: log)
                state.withLock { $0.anysync = door }
                try services.start(.doors, door)
            }
        } catch {
            // Drains what started, the store included (the first of the backend's parts).
            stopServices()
            throw StartError(description: "\(error)")
        }
        state.withLock {
            $0.backend = backend
            $0.readiness = .ready
        }
        log(.info, "ready", ["listen": "\(ListenAddress(host: config.listen.host, port: UInt16(port)))",
                             "platforms": "\(Platform.allCases.filter(platforms.contains).map(\.rawValue).joined(separator: ","))"])
    }

    /// `apps`: every app, `default` first (its platforms and key are the top-level capabilities).
    private func makeRouter(operations: OperationsRoutes, apps: [Capabilities.App],
                            replayCache: any ReplayCache, shared: Bool, peerID: String?) -> APIRouter {
        let capabilities = Capabilities(version: Self.version, platforms: apps[0].platforms,
                                        vapidPublicKey: apps[0].vapidPublicKey ?? "", limits: config.limits,
                                        anysyncEnabled: peerID != nil, anysyncPeerID: peerID, apps: apps)
        // A shared replay cache lives in the store's database: its checks are store calls.
        let authenticator = RequestAuthenticator(clockSkew: config.auth.clockSkew,
                                                 replayCache: replayCache, storage: shared ? storage : nil)
        return APIRouter(
            capabilities: capabilities, authenticator: authenticator,
            rateLimiter: rateLimiter,
            handler: { [state] request, account in
                // Storage still opening (the listener starts first): the client's answer is the one
                // of any storage it cannot use yet, with its Retry-After (PROTOCOL §3.2).
                guard let backend = state.withLock({ $0.backend }) else { return ErrorJSON.storageUnavailable }
                return backend.handler(request, account)
            },
            operations: operations, servesMetrics: config.adminListen == nil,
            servesStatus: config.server.statusOnPublicListener,
            gateway: Self.matrixGateway(enabled: config.matrix.enabled) { [state] in state.withLock { $0.backend?.matrix } },
            log: log)
    }

    /// The single-node replay cache, with its gauges: in memory, and with SQLite also in the data
    /// directory (`JournaledReplayCache`), so that a signed request accepted before a restart is
    /// refused after it (PROTOCOL §2).
    private func nodeReplayCache() throws -> any ReplayCache {
        let replayCache = MemoryReplayCache()
        metrics.gauge("pushnode_replay_cache_entries", help: "Signature nonces remembered for replay checks.",
                      of: replayCache) { Double($0.count) }
        metrics.gauge("pushnode_replay_cache_evicted_unexpired",
                      help: "Nonces forgotten before their window ended because the replay cache was full.",
                      of: replayCache) { Double($0.evictedUnexpired) }
        guard config.storage.driver == .sqlite else { return replayCache }
        return try JournaledReplayCache(directory: config.dataDir, window: 2 * config.auth.clockSkew, memory: replayCache)
    }

    private func startListeners(router: APIRouter, operations: OperationsRoutes) throws(StartError) {
        func server(_ name: String, _ address: ListenAddress, _ responder: any HTTPResponder) -> HTTPServer {
            var configuration = HTTPServer.Configuration(address: address)
            configuration.threads = config.server.threads
            configuration.connectionTimeout = config.server.connectionTimeout
            configuration.maxBodyBytes = config.limits.maxBodyBytes
            configuration.maxConnections = config.server.maxConnections
            configuration.maxConnectionsPerIP = config.server.maxConnectionsPerIP
            configuration.maxHeaderBytes = config.server.maxHeaderBytes
            configuration.requestTimeout = config.server.requestTimeout
            return HTTPServer(name: name, configuration: configuration, responder: responder)
        }
        let api = server("api", config.listen, router)
        do { try services.start(.doors, api) } catch { throw StartError(description: "listen: \(error)") }
        state.withLock { $0.api = api }
        metrics.gauge("pushnode_http_requests_in_flight", help: "HTTP requests being read or answered on the API listener.",
                      of: api) { Double($0.requestsInFlight) }
        if let adminAddress = config.adminListen {
            let admin = server("admin", adminAddress, AdminRouter(operations: operations))
            do { try services.start(.doors, admin) } catch {
                stopServices()
                throw StartError(description: "adminListen: \(error)")
            }
            state.withLock { $0.admin = admin }
            log(.info, "admin_listening", ["listen": "\(ListenAddress(host: adminAddress.host, port: UInt16(admin.port)))"])
        }
    }

    /// Drains every part in the order `NodeServices` writes down, then lets go of them.
    private func stopServices(drained: (NodeServices.Stage, [String]) -> Void = { _, _ in }) {
        services.stop(drained: drained)
        state.withLock { state in
            state.api = nil
            state.admin = nil
            state.anysync = nil
            state.backend = nil
        }
    }

    /// Graceful shutdown, once: readiness `draining`, then the doors stop accepting and answer what
    /// they accepted (within `server.shutdownTimeout`), the engine applies the answers in flight,
    /// and storage closes (`NodeServices`).
    package func shutdown() {
        guard state.withLock({ state -> Bool in
            guard !state.shutDown else { return false }
            state.shutDown = true
            state.readiness = .draining
            return true
        }), !services.parts.isEmpty else { return }
        stopServices { stage, unfinished in
            guard stage == .doors else { return }
            var fields = [LogField("stage", "drained"), LogField("complete", .bool(unfinished.isEmpty))]
            if !unfinished.isEmpty { fields.append(LogField("unfinished", "\(unfinished.joined(separator: ","))")) }
            log(LogRecord(.info, "shutdown", fields))
        }
        log(.info, "shutdown", ["stage": "done"])
    }

    /// Waits for SIGINT/SIGTERM (installed before `start`, see `ShutdownSignals`), then shuts down.
    package func runUntilSignal(_ signals: ShutdownSignals) {
        signals.wait(log: log)
        log(.info, "shutdown", ["stage": "started"])
        shutdown()
    }

}
