import Foundation
import PushConfig
import PushProtocol

/// `pushnode check --live`: asks every configured service whether it accepts this node's
/// credentials, as a start and the first deliveries would, and reports each answer in the
/// service's own words. The offline check (`NodeConfig.credentialIssues`) runs first.
///
/// | check | when | what it does | ok |
/// | --- | --- | --- | --- |
/// | `fcm` | `fcm.credentialsPath` set | mints an access token (the node's `FCMAccessTokens`) | the token endpoint gave one |
/// | `apns` | the four `apns.*` keys set | a push to an all-zero dummy token with a fresh provider JWT | 400 `BadDeviceToken` (or 2xx): key, team and topic accepted |
/// | `huawei` | `huawei.appId` and `clientSecret` set | an access token from `huawei.tokenURL`, then a `validate_only` push to a dummy token | 80300007 (or 80000000): token and app id accepted |
/// | `harmony` | `harmony.projectId` and `serviceAccountPath` set | a fresh PS256 JWT, then a test message to a dummy token | 80300007 (or 80000000): JWT and project accepted |
/// | `postgres` | `storage.driver: postgres` | connects and reads `pushnode_schema` | reachable, schema absent, older or the same as this build |
/// | `webpush` | always | loads the VAPID key without generating or storing one | it loads, or none exists yet |
///
/// It writes nothing: no migration (the store's open applies them when `serve` starts), no
/// generated key, no data directory. A `detail` never holds a token, key, payload or the
/// database URL's password.
package enum LiveCheck {
    package struct Result: Sendable, Equatable {
        package var name: String
        package var ok: Bool
        package var detail: String

        package init(_ name: String, ok: Bool, _ detail: String) {
            self.name = name
            self.ok = ok
            self.detail = detail
        }
    }

    /// Every check that applies to `config`, in the table's order; the provider checks once per
    /// app (PROTOCOL §10), named `fcm@chat` for an app of `apps`.
    package static func run(config: NodeConfig) -> [Result] {
        var results: [Result] = []
        for app in config.allApps {
            let alone = config.alone(app)
            var checks: [Result] = []
            if app.enabledPlatforms.contains(.android) { checks.append(fcm(config: alone)) }
            if app.enabledPlatforms.contains(.apns) { checks.append(apns(config: alone)) }
            for platform in [Platform.huawei, .harmony] where app.enabledPlatforms.contains(platform) {
                checks.append(pushKit(platform, config: alone))
            }
            if app.isDefault, config.storage.driver == .postgres { checks.append(postgres(config: config)) }
            checks.append(webPush(config: config, app: app))
            if !app.isDefault { checks = checks.map { Result("\($0.name)@\(app.id)", ok: $0.ok, $0.detail) } }
            results += checks
        }
        return results
    }
}
