/// Which registrations' deliveries a claim takes, by the registration's `appId` (PROTOCOL §10):
/// the delivery engine runs one lane per provider and app, so one app's refused credentials or
/// slow provider never hold back another's.
package enum AppFilter: Sendable, Equatable {
    /// Every delivery of the provider (a node with one app).
    case all
    /// Only the deliveries of registrations of this app.
    case only(String)
    /// Every delivery but those of registrations of these apps: the lane of `default`, which also
    /// takes the rows of apps no longer configured (to reject them) and of deleted registrations
    /// (to drop them).
    case except([String])

    /// Whether a registration of `appId` passes (nil: the registration is gone).
    package func admits(_ appId: String?) -> Bool {
        switch self {
        case .all: return true
        case .only(let app): return appId == app
        case .except(let apps): return appId.map { !apps.contains($0) } ?? true
        }
    }
}
