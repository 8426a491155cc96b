import PushProtocol
import PushSupport

extension NodeConfig {
    /// One app the node delivers for (PROTOCOL §10 "Apps"): the `appId` devices register with
    /// and its own provider credentials. The top-level `fcm`, `apns`, `webpush`, `huawei` and
    /// `harmony` sections are the app `default`; each entry of `apps` is another.
    package struct App: Sendable, Equatable {
        /// The app of the top-level sections, and of registrations stored without an app.
        package static let defaultID = "default"

        package var id: String
        package var fcm = FCM()
        package var apns = APNs()
        /// Only `vapidKeyPath` and `subject` are the app's own; `allowPrivateEndpoints` is the
        /// node's (`webpush.allowPrivateEndpoints`).
        package var webpush = WebPush()
        package var huawei = Huawei()
        package var harmony = Harmony()

        /// The credential keys of `provider` this app leaves unset (none: the provider is on).
        /// Web Push lacks none: a VAPID key is generated when none is set.
        package func missingKeys(_ provider: Provider) -> [String] {
            switch provider {
            case .fcm: fcm.credentialsPath.isEmpty ? ["fcm.credentialsPath"] : []
            case .apns: apns.missingKeys
            case .webpush: []
            case .huawei: huawei.missingKeys
            case .harmony: harmony.missingKeys
            }
        }

        /// The platforms this app has credentials for: FCM → android, ios; all four APNs keys →
        /// apns, apns_voip; both `huawei` keys → huawei; both `harmony` keys → harmony; Web Push
        /// always.
        package var enabledPlatforms: Set<Platform> {
            Set(Provider.allCases.filter { missingKeys($0).isEmpty }.flatMap(\.platforms))
        }

        package var isDefault: Bool { id == Self.defaultID }
    }

    /// The app `default` (the top-level sections), then the `apps` entries in file order.
    package var allApps: [App] {
        [App(id: App.defaultID, fcm: fcm, apns: apns, webpush: webpush, huawei: huawei, harmony: harmony)] + apps
    }

    /// The app of `id`; an empty id is `default` (registrations stored before apps existed).
    package func app(_ id: String) -> App? {
        let id = id.isEmpty ? App.defaultID : id
        return allApps.first { $0.id == id }
    }

    /// This config with `app`'s credentials as the top-level sections and no other app: what a
    /// check of one app's providers (`pushnode check --live`) runs on.
    package func alone(_ app: App) -> NodeConfig {
        var config = self
        config.fcm = app.fcm
        config.apns = app.apns
        config.huawei = app.huawei
        config.harmony = app.harmony
        config.webpush.vapidKeyPath = app.webpush.vapidKeyPath
        config.webpush.subject = app.webpush.subject
        config.apps = []
        return config
    }

    /// The key prefix of app `index` of `allApps` in messages: `""` for `default`, `apps[0].` for
    /// the first entry.
    package static func keyPrefix(ofApp index: Int) -> String {
        index == 0 ? "" : "apps[\(index - 1)]."
    }
}
