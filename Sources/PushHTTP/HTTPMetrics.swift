import PushMetrics

/// The HTTP door's metrics, registered once in a `MetricsRegistry`.
package struct HTTPMetrics: Sendable {
    package let requests: Counter
    package let latency: Histogram
    package let authFailures: Counter
    package let rateLimited: Counter

    package init(registry: MetricsRegistry) {
        requests = registry.counter("pushnode_http_requests_total",
                                    help: "HTTP requests answered, by route and status.", labels: ["route", "status"])
        latency = registry.histogram("pushnode_http_request_duration_seconds",
                                     help: "Time to answer an HTTP request once it was read, by route.", labels: ["route"])
        authFailures = registry.counter("pushnode_auth_failures_total",
                                        help: "Requests refused by request authentication, by error code.", labels: ["code"])
        rateLimited = registry.counter("pushnode_rate_limited_total",
                                       help: "Requests refused by a per-account rate limit, by class.", labels: ["class"])
    }
}
