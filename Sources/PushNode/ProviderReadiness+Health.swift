import PushEngine
import PushHTTP
import PushProtocol

extension ProviderReadiness {
    /// The engine's view of a provider as `/readyz` shows it.
    init(_ status: ProviderHealth.Status) {
        self.init(state: status.state, reason: status.reason?.code.rawValue,
                  providerReason: status.reason?.detail, since: status.since)
    }

    /// `/readyz`'s lane name (`fcm`, `fcm@chat`) → readiness, from the engine's snapshot.
    static func byName(_ snapshot: [LaneKey: ProviderHealth.Status]) -> [String: ProviderReadiness] {
        Dictionary(uniqueKeysWithValues: snapshot.map { ($0.key.name, ProviderReadiness($0.value)) })
    }
}
