/// `GET /healthz`, `GET /readyz` and `GET /metrics`, shared by the API and admin listeners.
public struct OperationsRoutes: Sendable {
    /// Whether the node can serve: storage open and not shutting down.
    public enum Readiness: String, Sendable {
        case starting, ready, draining
    }

    let metrics: MetricsRegistry
    let readiness: @Sendable () -> Readiness

    public init(metrics: MetricsRegistry, readiness: @escaping @Sendable () -> Readiness) {
        self.metrics = metrics
        self.readiness = readiness
    }

    private struct Status: Encodable { let status: String }

    /// `{"status":"ok"}` while the process serves.
    func health() -> HTTPResponse { JSON.response(Status(status: "ok")) }

    /// 200 `{"status":"ready"}` once storage is open; 503 `{"status":"starting"|"draining"}` otherwise.
    func ready() -> HTTPResponse {
        let state = readiness()
        return JSON.response(Status(status: state.rawValue), status: state == .ready ? 200 : 503)
    }

    /// The Prometheus text exposition.
    func renderMetrics() -> HTTPResponse {
        HTTPResponse(status: 200, headers: [("Content-Type", "text/plain; version=0.0.4; charset=utf-8")],
                     body: Array(metrics.render().utf8))
    }
}
