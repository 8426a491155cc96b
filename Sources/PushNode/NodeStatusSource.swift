import Foundation
import PushEngine
import PushHTTP
import PushProtocol
import PushStore
import PushSupport

/// Assembles the status page's `NodeStatus` from the engine (health, last failures, in flight,
/// per-minute counts, recent outcomes) and the store (queue per provider, registrations per
/// platform) at request time. A store call that fails leaves its part empty rather than failing
/// the page: the page is most wanted when something is wrong.
struct NodeStatusSource: Sendable {
    let engine: DeliveryEngine
    let store: any OutboxStore & StoreStatus
    /// `storage.driver`'s name (never the URL).
    let storageDriver: String
    let now: @Sendable () -> Date

    func snapshot(startedAt: Date) -> NodeStatus {
        let now = now()
        let queues = engine.queueStatistics.snapshot()
        let health = engine.health.snapshot
        let failures = engine.health.lastFailures
        let inFlight = engine.inFlightByLane
        let providers = engine.laneKeys.map { lane in
            NodeStatus.ProviderRow(
                provider: lane.provider.rawValue, health: health[lane]?.state ?? .healthy,
                queueDepth: queues[lane.provider]?.depth ?? 0,
                oldestAgeSeconds: queues[lane.provider].map { max(0, now.timeIntervalSince($0.oldestCreatedAt)) } ?? 0,
                inFlight: inFlight[lane] ?? 0,
                lastFailure: failures[lane].map { NodeStatus.Failure(reason: $0.reason, at: $0.at) }, app: lane.app)
        }
        let registrations = ((try? store.registrationCounts()) ?? [:]).reduce(into: [String: Int]()) { $0[$1.key.rawValue] = $1.value }
        let minutes = engine.activity.minutes(endingAt: now).map { NodeStatus.Minute(start: $0.start, counts: $0.counts) }
        return NodeStatus(version: NodeVersion.current, generatedAt: now, startedAt: startedAt,
                          uptimeSeconds: max(0, Int(now.timeIntervalSince(startedAt))), storage: storageDriver,
                          providers: providers, registrations: registrations, perMinute: minutes, recent: engine.activity.recent)
    }
}
