import PushMetrics
import PushSupport

/// `GET /healthz`, `GET /readyz` and `GET /metrics`, shared by the API and admin listeners.
package struct OperationsRoutes: Sendable {
    /// Whether the node can serve: storage open and not shutting down.
    package enum Readiness: String, Sendable {
        case starting, ready, draining
    }

    package let metrics: MetricsRegistry
    package let readiness: @Sendable () -> Readiness
    /// Per-provider health for the `/readyz` detail (`{"fcm": "healthy", …}`); empty leaves it out.
    package let providers: @Sendable () -> [String: String]

    package init(metrics: MetricsRegistry, readiness: @escaping @Sendable () -> Readiness,
                providers: @escaping @Sendable () -> [String: String] = { [:] }) {
        self.metrics = metrics
        self.readiness = readiness
        self.providers = providers
    }

    /// The routes it answers (their paths are in `RouteTable`).
    package enum Endpoint: Sendable {
        case health, readiness, metrics
    }

    /// The answer of `endpoint`.
    func respond(_ endpoint: Endpoint) -> HTTPResponse {
        switch endpoint {
        case .health: return health()
        case .readiness: return ready()
        case .metrics: return renderMetrics()
        }
    }

    private struct Status: Encodable {
        let status: String
        var providers: [String: String]? = nil
    }

    /// `{"status":"ok"}` while the process serves.
    private func health() -> HTTPResponse { JSON.response(Status(status: "ok")) }

    /// 200 `{"status":"ready"}` once storage is open; 503 `{"status":"starting"|"draining"}` otherwise.
    /// With delivery running, `providers` tells each provider's health (an unhealthy provider
    /// does not make the node unready: the API still queues deliveries durably).
    private func ready() -> HTTPResponse {
        let state = readiness()
        let detail = providers()
        return JSON.response(Status(status: state.rawValue, providers: detail.isEmpty ? nil : detail),
                             status: state == .ready ? 200 : 503)
    }

    /// The Prometheus text exposition.
    private func renderMetrics() -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                     body: Array(metrics.render().utf8))
    }
}
