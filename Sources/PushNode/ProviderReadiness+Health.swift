import PushEngine
import PushHTTP

extension ProviderReadiness {
    /// The engine's view of a provider as `/readyz` shows it.
    init(_ status: ProviderHealth.Status) {
        self.init(state: status.state.rawValue, reason: status.reason?.code.rawValue,
                  providerReason: status.reason?.detail, since: status.since)
    }
}
