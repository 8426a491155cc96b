import Foundation
import PushMetrics
import PushProtocol
import PushStore

/// The delivery engine's `/metrics` families (`pushnode_*`); each lane's series carry its
/// `provider` and `app` (PROTOCOL §10).
package struct DeliveryMetrics: Sendable {
    /// `outcome`: a `TryOutcome`.
    let deliveries: Counter
    let sendSeconds: Histogram
    /// Accept of the Notify to the provider's answer that delivered it: what a user waits.
    let deliveredAfter: Histogram
    let credentialRefreshes: Counter
    let pruned: Counter
    let healthy: Gauge
    let inFlight: Gauge

    package init(registry: MetricsRegistry) {
        deliveries = registry.counter("pushnode_deliveries_total",
                                      help: "Delivery tries by provider and outcome (\(TryOutcome.allCases.map(\.rawValue).joined(separator: ", "))).",
                                      labels: ["provider", "app", "outcome"])
        sendSeconds = registry.histogram("pushnode_delivery_send_seconds",
                                         help: "Time from sending a push to the provider's answer.",
                                         labels: ["provider", "app"])
        deliveredAfter = registry.histogram("pushnode_delivery_latency_seconds",
                                            help: "Time from accepting the Notify to the provider's answer that delivered it (queueing and retries included).",
                                            labels: ["provider", "app"], buckets: Self.latencyBuckets)
        credentialRefreshes = registry.counter("pushnode_credential_refreshes_total",
                                               help: "Provider credentials minted (FCM access tokens, APNs provider JWTs).",
                                               labels: ["provider", "app"])
        pruned = registry.counter("pushnode_registrations_pruned_total",
                                  help: "Registrations deleted because the provider called them dead, by reason.",
                                  labels: ["provider", "app", "reason"])
        healthy = registry.gauge("pushnode_provider_healthy",
                                 help: "1 while the provider accepts our credentials and configuration, 0 when not.",
                                 labels: ["provider", "app"])
        inFlight = registry.gauge("pushnode_deliveries_in_flight", help: "Requests sent and not yet answered.",
                                  labels: ["provider", "app"])
    }

    /// 5 ms to 30 min: fine below a second (the node's own share), then the retry backoffs.
    static let latencyBuckets: [Double] = [0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 0.75, 1, 2.5, 5, 10, 30, 60,
                                           300, 1800]

    /// Queue depth and oldest-entry age per provider, read at scrape time (`QueueStatistics`).
    package static func registerOutboxGauges(registry: MetricsRegistry, providers: [Provider],
                                             statistics: QueueStatistics, clock: EngineClock) {
        registry.gauge("pushnode_outbox_depth", help: "Deliveries queued or in flight, per provider.",
                       labels: ["provider"], of: statistics) { statistics in
            let stats = statistics.snapshot()
            return providers.map { ([$0.rawValue], Double(stats[$0]?.depth ?? 0)) }
        }
        registry.gauge("pushnode_outbox_oldest_age_seconds", help: "Age of the oldest queued delivery, per provider.",
                       labels: ["provider"], of: statistics) { statistics in
            let stats = statistics.snapshot()
            let now = clock.now()
            return providers.map { provider in
                ([provider.rawValue], stats[provider].map { max(0, now.timeIntervalSince($0.oldestCreatedAt)) } ?? 0)
            }
        }
    }
}
