import PushConfig
import PushSupport

/// Registrations stored under an app the config does not have — an app removed from `apps`, or
/// registrations an older node took for any `appId` (PROTOCOL §10): counted once at start in one
/// warning, per `appId` and never with a token. Their deliveries are rejected
/// `gateway.app_unconfigured` (`DeliveryAssembly`), never sent with another app's credentials.
enum UnconfiguredAppRegistrations {
    /// At most this many apps are named (an older node took any `appId`); the rest are counted.
    static let namedApps = 20
    /// An `appId` longer than this is cut in the warning.
    static let idLength = 64

    /// The warning for `counts` (registrations per stored `appId`); nil when every one is an app
    /// of `config` (an empty id is `default`'s).
    static func warning(counts: [String: Int], config: NodeConfig) -> LogRecord? {
        let unconfigured = counts.filter { $0.value > 0 && config.app($0.key) == nil }
        guard !unconfigured.isEmpty else { return nil }
        let largestFirst = unconfigured.sorted { ($0.value, $1.key) > ($1.value, $0.key) }
        var named = largestFirst.prefix(namedApps).map { "\(String($0.key.prefix(idLength)))=\($0.value)" }
        if largestFirst.count > namedApps { named.append("(\(largestFirst.count - namedApps) more apps)") }
        return LogRecord(.warn, "registrations_app_unconfigured", [
            "registrations": .int(unconfigured.values.reduce(0, +)), "apps": .string(named.joined(separator: ",")),
            "reason": "no app of this id in apps: their deliveries are rejected (gateway.app_unconfigured)"])
    }
}
