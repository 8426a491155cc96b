import Dispatch
import Foundation
import PushDelivery
import PushMetrics
import PushProtocol
import PushStore
import PushSupport

/// Drains the durable outbox to the providers: one `ProviderLane` per provider and app with
/// credentials (`LaneKey`), a wakeup when a Notify commits, and a periodic purge of expired rows.
///
/// Crash safety comes from the store: a claim carries a lease, and rows a previous process
/// claimed are due again when the store opens, so after `kill -9` every unfinished delivery
/// resumes (at least once; `x-any-id` lets devices drop a duplicate).
///
/// A `LongRunning` part made of `LongRunning` parts (the lanes, the purge and summary timers):
/// `stop()` stops claiming and the timers; `drain(timeout:)` waits for the answers of the tries in
/// flight, then shuts the transport down. Drain it before closing the store.
package final class DeliveryEngine: LongRunning {
    package let name = "delivery"
    package struct Configuration: Sendable {
        package var policy: RetryPolicy
        /// Requests outstanding per provider at most; further due rows wait in the outbox.
        package var maxInFlight: Int
        /// Rows claimed per store round trip.
        package var claimBatch: Int
        package var pollInterval: TimeInterval
        package var purgeInterval: TimeInterval
        package var credentialRetry: TimeInterval
        package var requestTimeout: TimeInterval
        /// How often the leases of claims still being sent are renewed; keep it well under the
        /// store's claim lease (a third), so no other node takes over a delivery in flight.
        package var claimRenewInterval: TimeInterval = 10
        /// How often the per-provider, per-outcome counts are logged (`event=delivery_summary`).
        package var summaryInterval: TimeInterval = 60
        /// Finished rows deleted per store write under load, and the longest one waits for it
        /// (`LaneStateMachine.Settings.completionBatch`).
        package var completionBatch = 64
        package var completionDelay: TimeInterval = 0.005

        package init(policy: RetryPolicy = .default, maxInFlight: Int = 1000, claimBatch: Int = 256,
                    pollInterval: TimeInterval = 1, purgeInterval: TimeInterval = 60, credentialRetry: TimeInterval = 5,
                    requestTimeout: TimeInterval = 30) {
            self.policy = policy
            self.maxInFlight = max(1, maxInFlight)
            self.claimBatch = max(1, claimBatch)
            self.pollInterval = pollInterval
            self.purgeInterval = purgeInterval
            self.credentialRetry = credentialRetry
            self.requestTimeout = requestTimeout
        }

    }

    /// A provider the engine delivers for, for one app.
    package struct Route: Sendable {
        package var gateway: any PushGateway
        /// Nil for Web Push (VAPID is signed per origin inside its gateway).
        package var credentials: (any ProviderCredentials)?
        /// The app whose credentials these are.
        package var app: String
        /// Whose deliveries its lane claims (`AppFilter`): `.all` on a node without `apps`.
        package var claims: AppFilter

        package init(gateway: any PushGateway, credentials: (any ProviderCredentials)?, app: String = LaneKey.defaultApp,
                    claims: AppFilter = .all) {
            self.gateway = gateway
            self.credentials = credentials
            self.app = app
            self.claims = claims
        }

        package var lane: LaneKey { LaneKey(gateway.provider, app: app) }
    }

    private let lanes: [LaneKey: ProviderLane]
    private let transport: any DeliveryTransport
    private let log: LogSink
    private let clock: EngineClock
    /// The outbox purge and the `delivery_summary` line.
    private let timers: [PeriodicTask]
    private let summary: DeliverySummary
    package let health: ProviderHealth
    /// Tries per minute and the recent outcomes, for the status page.
    package let activity: DeliveryActivity
    /// The outbox per provider for `/metrics` and the status page, read at most so often.
    package let queueStatistics: QueueStatistics

    package init(store: any OutboxStore, routes: [Route], transport: any DeliveryTransport, configuration: Configuration,
                metrics: MetricsRegistry, log: LogSink, clock: EngineClock = .system) {
        let deliveryMetrics = DeliveryMetrics(registry: metrics)
        let health = ProviderHealth(lanes: routes.map(\.lane), gauge: deliveryMetrics.healthy)
        let summary = DeliverySummary(monotonic: clock.monotonic)
        let activity = DeliveryActivity()
        let settings = LaneStateMachine.Settings(
            policy: configuration.policy, maxInFlight: configuration.maxInFlight, claimBatch: configuration.claimBatch,
            pollInterval: configuration.pollInterval, credentialRetry: configuration.credentialRetry,
            claimRenewInterval: configuration.claimRenewInterval, completionBatch: configuration.completionBatch,
            completionDelay: configuration.completionDelay)
        var lanes: [LaneKey: ProviderLane] = [:]
        for route in routes {
            lanes[route.lane] = ProviderLane(
                key: route.lane, claims: route.claims, gateway: route.gateway, credentials: route.credentials, store: store, transport: transport,
                settings: settings, requestTimeout: configuration.requestTimeout, metrics: deliveryMetrics,
                health: health, summary: summary, activity: activity, log: log, clock: clock)
        }
        self.lanes = lanes
        timers = [
            PeriodicTask(name: "outbox-purge", every: configuration.purgeInterval) { [store, clock, log] in
                do { _ = try store.purgeExpired(now: clock.now()) } catch {
                    log(.error, "outbox_purge", ["error": "\(error)"])
                }
            },
            PeriodicTask(name: "delivery-summary", every: configuration.summaryInterval) { [summary, log] in
                if let line = summary.take() { log(line) }
            },
        ]
        self.transport = transport
        self.log = log
        self.clock = clock
        self.health = health
        self.summary = summary
        self.activity = activity
        let providers = Set(lanes.keys.map(\.provider))
        queueStatistics = QueueStatistics(read: { [store] in (try? store.outboxStatistics()) ?? [:] },
                                          monotonic: clock.monotonic)
        DeliveryMetrics.registerOutboxGauges(registry: metrics, providers: Provider.allCases.filter(providers.contains),
                                             statistics: queueStatistics, clock: clock)
    }

    /// The providers with a lane.
    package var providers: Set<Provider> { Set(lanes.keys.map(\.provider)) }

    /// Every lane, providers in `Provider.allCases` order, `default` first.
    package var laneKeys: [LaneKey] { lanes.keys.sorted() }

    package func start() {
        lanes.values.forEach { $0.start() }
        timers.forEach { $0.start() }
    }

    /// Deliveries were queued for `providers`: their lanes claim now rather than at the next poll.
    package func wake(_ providers: Set<Provider>) {
        for (key, lane) in lanes where providers.contains(key.provider) { lane.wake() }
    }

    /// Requests awaiting an answer, per provider.
    package var inFlight: [Provider: Int] {
        lanes.reduce(into: [:]) { $0[$1.key.provider, default: 0] += $1.value.requestsInFlight }
    }

    /// Requests awaiting an answer, per lane.
    package var inFlightByLane: [LaneKey: Int] { lanes.mapValues(\.requestsInFlight) }

    /// Stops claiming, purging and summarizing; the tries in flight go on.
    package func stop() {
        timers.forEach { $0.stop() }
        lanes.values.forEach { $0.stop() }
    }

    /// Waits up to `timeout` seconds for the answers in flight, then cancels the rest (their rows
    /// stay claimed and resume when the store next opens) and shuts the transport down; logs the
    /// last summary. True when nothing was cancelled.
    @discardableResult
    package func drain(timeout: TimeInterval) -> Bool {
        stop()
        let deadline = clock.monotonic() + timeout
        let left = { [clock] in max(0, deadline - clock.monotonic()) }
        let drained = (timers + lanes.values.map { $0 as any LongRunning }).map { $0.drain(timeout: left()) }.allSatisfy { $0 }
        transport.shutdown()
        if !drained {
            log(.warn, "delivery_stop", ["in_flight_left": true])
            // Let the cancelled answers reach the lanes' threads before the store closes.
            lanes.values.forEach { $0.drain(timeout: 1) }
        }
        if let line = summary.take() { log(line) }
        return drained
    }
}
