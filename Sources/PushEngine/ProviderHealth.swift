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

    private let statuses: Protected<[Provider: Status]>
    private let failures = Protected<[Provider: Failure]>([:])
    private let gauge: Gauge?

    package init(providers: [Provider], gauge: Gauge?, now: Date = Date()) {
        self.gauge = gauge
        statuses = Protected(Dictionary(uniqueKeysWithValues: providers.map { ($0, Status(state: .healthy, since: now)) }))
        for provider in providers { gauge?.set(1, provider.rawValue) }
    }

    /// Records `state` at `now`; a state already held keeps its first time and reason.
    package func set(_ provider: Provider, _ state: State, reason: DeliveryReason? = nil, at now: Date = Date()) {
        let changed = statuses.withLock { statuses -> Bool in
            guard statuses[provider]?.state != state else { return false }
            statuses[provider] = Status(state: state, reason: state == .healthy ? nil : reason, since: now)
            return true
        }
        if changed { gauge?.set(state == .healthy ? 1 : 0, provider.rawValue) }
    }

    package func state(of provider: Provider) -> State? { statuses.withLock { $0[provider]?.state } }

    /// Remembers a try of `provider` that did not deliver (retried, dead, rejected, expired) as its
    /// last failure; the status page shows it next to the state.
    package func recordFailure(_ provider: Provider, reason: String, at date: Date) {
        failures.withLock { $0[provider] = Failure(reason: reason, at: date) }
    }

    /// The last failure per provider (absent before the first).
    package var lastFailures: [Provider: Failure] { failures.withLock { $0 } }

    package func status(of provider: Provider) -> Status? { statuses.withLock { $0[provider] } }

    /// Provider → status, for `/readyz` and the status page.
    package var snapshot: [Provider: Status] { statuses.withLock { $0 } }
}
