import Foundation
import PushMetrics
import PushProtocol
import PushSupport

/// Whether each provider currently accepts our credentials and configuration; shown in
/// `/metrics` (`pushnode_provider_healthy`) and the `/readyz` detail.
package final class ProviderHealth: Sendable {
    package enum State: String, Sendable {
        case healthy
        /// Credentials refused after one renewal, or none could be minted.
        case credentialsRefused = "credentials_refused"
        /// The provider refused our configuration (FCM `THIRD_PARTY_AUTH_ERROR`, APNs topic …).
        case misconfigured
    }

    /// A provider's last failed try: its reason code (§6) and when.
    package struct Failure: Sendable, Equatable {
        package var reason: String
        package var at: Date
    }

    private let states: Protected<[Provider: State]>
    private let failures = Protected<[Provider: Failure]>([:])
    private let gauge: Gauge?

    package init(providers: [Provider], gauge: Gauge?) {
        self.gauge = gauge
        states = Protected(Dictionary(uniqueKeysWithValues: providers.map { ($0, State.healthy) }))
        for provider in providers { gauge?.set(1, provider.rawValue) }
    }

    package func set(_ provider: Provider, _ state: State) {
        let changed = states.withLock { states -> Bool in
            defer { states[provider] = state }
            return states[provider] != state
        }
        if changed { gauge?.set(state == .healthy ? 1 : 0, provider.rawValue) }
    }

    package func state(of provider: Provider) -> State? { states.withLock { $0[provider] } }

    /// Remembers a try of `provider` that did not deliver (retried, dead, rejected, expired) as its
    /// last failure; the status page shows it next to the state.
    package func recordFailure(_ provider: Provider, reason: String, at date: Date) {
        failures.withLock { $0[provider] = Failure(reason: reason, at: date) }
    }

    /// The last failure per provider (absent before the first).
    package var lastFailures: [Provider: Failure] { failures.withLock { $0 } }

    /// Provider name → state name, for `/readyz`.
    package var snapshot: [String: String] {
        states.withLock { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, $0.value.rawValue) }) }
    }
}
