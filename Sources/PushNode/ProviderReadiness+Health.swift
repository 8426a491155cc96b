import PushEngine
import PushHTTP
import PushProtocol

extension ProviderReadiness {
    /// The engine's view of a provider as `/readyz` shows it.
    init(_ status: ProviderHealth.Status) {
        self.init(state: status.state, reason: status.reason?.code.rawValue,
                  providerReason: status.reason?.detail, since: status.since)
    }

    /// `/readyz`'s provider name → readiness, from the engine's snapshot.
    static func byName(_ snapshot: [Provider: ProviderHealth.Status]) -> [String: ProviderReadiness] {
        Dictionary(uniqueKeysWithValues: snapshot.map { ($0.key.rawValue, ProviderReadiness($0.value)) })
    }
}
