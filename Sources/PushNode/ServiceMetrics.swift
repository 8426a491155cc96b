import PushMetrics
import PushService

/// The service's counters in `/metrics`, read from `PushService.statistics()` at scrape time (the
/// service does not know the registry).
enum ServiceMetrics {
    static func register(_ service: PushService, in metrics: MetricsRegistry) {
        metrics.counter("pushnode_notifications_total", help: "Notify requests answered 200, by result (accepted or duplicate).",
                        labels: ["result"], of: service) { service in
            let counts = service.statistics()
            return [(["accepted"], Double(counts.notificationsAccepted)), (["duplicate"], Double(counts.notificationsDuplicate))]
        }
        metrics.counter("pushnode_deliveries_queued_total", help: "Deliveries queued by accepted Notify requests.",
                        labels: [], of: service) { [([], Double($0.statistics().deliveriesQueued))] }
        metrics.counter("pushnode_deliveries_superseded_total",
                        help: "Undelivered deliveries withdrawn by a replacing Notify (replaces, kind clear).",
                        labels: [], of: service) { [([], Double($0.statistics().deliveriesSuperseded))] }
    }
}
