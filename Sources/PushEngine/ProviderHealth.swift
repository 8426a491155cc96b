import Foundation
import PushDelivery
import PushMetrics
import PushProtocol
import PushSupport

/// Whether each provider currently accepts our credentials and configuration, why not (the
/// refusal's reason code and the provider's own word for it) and since when; shown in
/// `/metrics` (`pushnode_provider_healthy`) and the `/readyz` detail (PROTOCOL §3.3).
package final class ProviderHealth: Sendable {
    package typealias State = ProviderHealthState

    /// A provider's last failed try: its reason code (§6) and when.
    package struct Failure: Sendable, Equatable {
        package var reason: String
        package var at: Date
    }

    /// One provider's health as last set.
    package struct Status: Sendable, Equatable {
        package var state: State
        /// Why it is not healthy (nil while healthy): `apns.provider_token` with the provider's
        /// `InvalidProviderToken`, or `gateway.credentials_unavailable` with why the mint failed.
        package var reason: DeliveryReason?
        /// When the provider entered `state` (for a healthy one: the start, or its recovery).
        package var since: Date
    }

    private let statuses: Protected<[LaneKey: Status]>
    private let failures = Protected<[LaneKey: Failure]>([:])
    private let gauge: Gauge?

    /// The providers of the app `default`.
    package convenience init(providers: [Provider], gauge: Gauge?, now: Date = Date()) {
        self.init(lanes: providers.map { LaneKey($0) }, gauge: gauge, now: now)
    }

    /// One health per lane: each app's provider is healthy or not on its own.
    package init(lanes: [LaneKey], gauge: Gauge?, now: Date = Date()) {
        self.gauge = gauge
        statuses = Protected(Dictionary(uniqueKeysWithValues: lanes.map { ($0, Status(state: .healthy, since: now)) }))
        for lane in lanes { gauge?.set(1, lane.provider.rawValue, lane.app) }
    }

    /// Records `state` of `provider` for `app` at `now`; a state already held keeps its first time and reason.
    package func set(_ provider: Provider, app: String = LaneKey.defaultApp, _ state: State, reason: DeliveryReason? = nil,
                     at now: Date = Date()) {
        let lane = LaneKey(provider, app: app)
        let changed = statuses.withLock { statuses -> Bool in
            guard statuses[lane]?.state != state else { return false }
            statuses[lane] = Status(state: state, reason: state == .healthy ? nil : reason, since: now)
            return true
        }
        if changed { gauge?.set(state == .healthy ? 1 : 0, provider.rawValue, app) }
    }

    package func state(of provider: Provider, app: String = LaneKey.defaultApp) -> State? {
        statuses.withLock { $0[LaneKey(provider, app: app)]?.state }
    }

    /// Remembers a try that did not deliver (retried, dead, rejected, expired) as the lane's
    /// last failure; the status page shows it next to the state.
    package func recordFailure(_ provider: Provider, app: String = LaneKey.defaultApp, reason: String, at date: Date) {
        failures.withLock { $0[LaneKey(provider, app: app)] = Failure(reason: reason, at: date) }
    }

    /// The last failure per lane (absent before the first).
    package var lastFailures: [LaneKey: Failure] { failures.withLock { $0 } }

    package func status(of provider: Provider, app: String = LaneKey.defaultApp) -> Status? {
        statuses.withLock { $0[LaneKey(provider, app: app)] }
    }

    /// Lane → status, for `/readyz` and the status page.
    package var snapshot: [LaneKey: Status] { statuses.withLock { $0 } }
}
