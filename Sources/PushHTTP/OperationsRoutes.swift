import PushMetrics
import PushProtocol
import PushSupport

/// `GET /healthz`, `GET /readyz`, `GET /metrics`, `GET /status` and `GET /status.json`, shared by the
/// API and admin listeners (which of them the API listener serves is the node's choice, see `APIRouter`).
package struct OperationsRoutes: Sendable {
    /// Whether the node can serve: storage open and working, and not shutting down.
    package enum Readiness: String, Sendable {
        case starting, ready, draining
        /// Open, but storage is failing: a read or a write failed, and no call of the same kind has
        /// succeeded since (PROTOCOL §3.2 `storage.unavailable`, §3.3).
        case storageUnavailable = "storage_unavailable"
    }

    package let metrics: MetricsRegistry
    package let readiness: @Sendable () -> Readiness
    /// Per-provider health for the `/readyz` detail; empty leaves it out.
    package let providers: @Sendable () -> [String: ProviderReadiness]
    /// While storage fails, a retry of what failed (a cheap read, a small committed write) that
    /// records its outcome in the node's `StorageHealth` and returns whether storage is available
    /// again, so `/readyz` recovers without waiting for traffic. Asked only when `readiness` says
    /// `.ready`.
    package let probeStorage: @Sendable () -> Bool
    /// The status page's snapshot; nil until storage is open (503 `starting`).
    package let status: @Sendable () -> NodeStatus?

    package init(metrics: MetricsRegistry, readiness: @escaping @Sendable () -> Readiness,
                providers: @escaping @Sendable () -> [String: ProviderReadiness] = { [:] },
                probeStorage: @escaping @Sendable () -> Bool = { true },
                status: @escaping @Sendable () -> NodeStatus? = { nil }) {
        self.metrics = metrics
        self.readiness = readiness
        self.providers = providers
        self.probeStorage = probeStorage
        self.status = status
    }

    /// The routes it answers (their paths are in `RouteTable`).
    package enum Endpoint: Sendable {
        case health, readiness, metrics
        /// `/status` (HTML) and `/status.json`.
        case statusPage, statusJSON
    }

    /// The answer of `endpoint`.
    func respond(_ endpoint: Endpoint) -> HTTPResponse {
        switch endpoint {
        case .health: return health()
        case .readiness: return ready()
        case .metrics: return renderMetrics()
        case .statusPage, .statusJSON: return renderStatus(endpoint)
        }
    }

    private struct Status: Encodable {
        let status: String
        /// PROTOCOL §3.3's fixed field: provider → state name.
        var providers: [String: ProviderHealthState]? = nil
        /// The detail added to it: provider → state, reason and since when.
        var providerDetail: [String: ProviderReadiness]? = nil
    }

    /// `{"status":"ok"}` while the process serves.
    private func health() -> HTTPResponse { JSON.response(Status(status: "ok")) }

    /// 200 `{"status":"ready"}` once storage is open and working; 503
    /// `{"status":"starting"|"draining"|"storage_unavailable"}` otherwise. With delivery running,
    /// `providers` tells each provider's health and `providerDetail` why and since when. An
    /// unhealthy provider does not make the node unready (still 200): the API still accepts and
    /// durably queues its deliveries, which go out once the credentials are fixed, and a load
    /// balancer taking the node out would not fix them. Alert on the detail or on
    /// `pushnode_provider_healthy` instead.
    private func ready() -> HTTPResponse {
        var state = readiness()
        if state == .ready, !probeStorage() { state = .storageUnavailable }
        let detail = providers()
        return JSON.response(Status(status: state.rawValue,
                                    providers: detail.isEmpty ? nil : detail.mapValues(\.state),
                                    providerDetail: detail.isEmpty ? nil : detail),
                             status: state == .ready ? 200 : 503)
    }

    /// The status snapshot as a page or JSON; 503 `{"status":"starting"}` before storage is open.
    private func renderStatus(_ endpoint: Endpoint) -> HTTPResponse {
        guard let snapshot = status() else { return JSON.response(Status(status: Readiness.starting.rawValue), status: 503) }
        if endpoint == .statusPage { return HTTPResponse(status: 200, headers: StatusPage.headers, body: StatusPage.render(snapshot)) }
        return HTTPResponse(status: 200, headers: [("Content-Type", "application/json"), ("Cache-Control", "no-store")],
                            body: snapshot.json)
    }

    /// The Prometheus text exposition.
    private func renderMetrics() -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                     body: Array(metrics.render().utf8))
    }
}
