import PushProtocol
import PushStore

/// What a delivery lane serves: one provider for one app (PROTOCOL §10). Each app has its own
/// lanes, so its refused credentials, its provider's slowness and its in-flight budget are its
/// own; a node without `apps` has the one lane per provider it always had.
package struct LaneKey: Hashable, Sendable, Comparable {
    package static let defaultApp = "default"

    package var provider: Provider
    package var app: String

    package init(_ provider: Provider, app: String = LaneKey.defaultApp) {
        self.provider = provider
        self.app = app
    }

    package var isDefaultApp: Bool { app == Self.defaultApp }

    /// `fcm` for the app `default`, `fcm@chat` for another: the name in `/readyz` and logs.
    package var name: String { isDefaultApp ? provider.rawValue : "\(provider.rawValue)@\(app)" }

    /// A registration's app; an empty one is `default` (stored before apps existed).
    package static func app(of appId: String) -> String { appId.isEmpty ? defaultApp : appId }

    package static func < (a: LaneKey, b: LaneKey) -> Bool {
        let order = Provider.allCases
        let (i, j) = (order.firstIndex(of: a.provider)!, order.firstIndex(of: b.provider)!)
        if i != j { return i < j }
        if a.isDefaultApp != b.isDefaultApp { return a.isDefaultApp }
        return a.app < b.app
    }
}
