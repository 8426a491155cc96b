import Foundation
import HTTPClient
import PushConfig
import PushCrypto
import PushDelivery
import PushEngine
import PushProtocol
import PushStore

/// Builds the gateways, credentials and transport of the configured providers, one route per
/// provider and app (PROTOCOL §10): used by the node's delivery engine and by `pushnode send`.
///
/// A node without `apps` has one route per provider with credentials, claiming every delivery.
/// With `apps`, each app with credentials for a provider gets a route claiming only its own
/// registrations' deliveries; the `default` route claims the rest and rejects those of an app
/// without a route (`gateway.app_unconfigured`), so a delivery is never sent with another app's
/// credentials. When `default` has no credentials for a provider another app has, its route is
/// an `UnconfiguredGateway` that only rejects.
package struct DeliveryAssembly: Sendable {
    package let routes: [DeliveryEngine.Route]
    package let transport: HTTPDeliveryTransport

    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// Routes for `platforms` (of any app): every app with credentials for one of them, or only
    /// `app` when given (`pushnode send`, the test push).
    ///
    /// `sharedCredentials`: where the APNs provider token of each key is kept for every node
    /// (PostgreSQL); nil keeps it in this process. Apps with the same Apple key share one token.
    /// `probe`: Huawei's requests are checked and delivered to nobody (`validate_only` on v1, a
    /// test message on v3), for `pushnode check --live`.
    package init(config: NodeConfig, platforms: Set<Platform>, app onlyApp: String? = nil,
                 sharedCredentials: (any SharedCredentialStore)? = nil, probe: Bool = false) throws(Failure) {
        do {
            transport = try HTTPDeliveryTransport(caFile: config.tls.caFile,
                                                  allowPrivateEndpoints: config.webpush.allowPrivateEndpoints,
                                                  userAgent: DeliveryUserAgent.value(config: config),
                                                  engine: config.delivery.httpEngine == .libcurl ? .libcurl : .nghttp2)
        } catch {
            throw Failure(description: "delivery: cannot start the HTTP client: \(error.code)")
        }
        let alert = DefaultAlert(title: config.notifications.defaultAlert.title, body: config.notifications.defaultAlert.body)
        let apps = config.allApps.enumerated().filter { onlyApp == nil || $0.element.id == onlyApp }
        var routes: [DeliveryEngine.Route] = []
        var apnsTokens: [String: SelfSignedTokens] = [:]
        for provider in Provider.allCases where platforms.contains(where: { $0.provider == provider }) {
            let served = apps.filter { $0.element.enabledPlatforms.isSuperset(of: provider.platforms) }
            let others = served.map(\.element.id).filter { $0 != NodeConfig.App.defaultID }
            for (index, app) in served {
                let claims: AppFilter = onlyApp != nil ? .only(app.id)
                    : app.isDefault ? (config.apps.isEmpty ? .all : .except(others)) : .only(app.id)
                let prefix = NodeConfig.keyPrefix(ofApp: index)
                var route: DeliveryEngine.Route
                switch provider {
                case .fcm: route = try Self.fcm(app, prefix: prefix, config: config, alert: alert, transport: transport)
                case .apns: route = try Self.apns(app, prefix: prefix, alert: alert, tokens: &apnsTokens, shared: sharedCredentials)
                case .webpush: route = try Self.webPush(app, prefix: prefix, config: config)
                case .huawei: route = Self.huawei(app, transport: transport, probe: probe)
                case .harmony: route = try Self.harmony(app, prefix: prefix, alert: alert, probe: probe)
                }
                route.app = app.id
                route.claims = claims
                routes.append(route)
            }
            if onlyApp == nil, !config.apps.isEmpty, !served.contains(where: { $0.element.isDefault }) {
                routes.append(DeliveryEngine.Route(gateway: UnconfiguredGateway(provider: provider), credentials: nil,
                                                   claims: .except(others)))
            }
        }
        self.routes = routes
    }

    /// The route of `provider` for `app` (`default` unless given).
    package func route(for provider: Provider, app: String = NodeConfig.App.defaultID) -> DeliveryEngine.Route? {
        routes.first { $0.gateway.provider == provider && $0.app == app }
    }

    static func fcm(_ app: NodeConfig.App, prefix: String, config: NodeConfig, alert: DefaultAlert,
                    transport: HTTPDeliveryTransport) throws(Failure) -> DeliveryEngine.Route {
        let account: ServiceAccount
        let assertion: GoogleServiceAccountAssertion
        do {
            account = try ServiceAccount(contentsOfFile: app.fcm.credentialsPath)
            assertion = try account.assertion()
        } catch {
            throw Failure(description: "\(prefix)fcm.credentialsPath: \(app.fcm.credentialsPath): \(error)")
        }
        let tokens = FCMAccessTokens.make(assertion: assertion, endpoint: HTTPOAuthTokenEndpoint(client: transport.providers))
        let gateway = CredentialedGateway<FCMGateway>(
            configuration: .init(projectId: account.projectId, baseURL: app.fcm.baseURL, defaultAlert: alert),
            credential: { tokens.current() })
        return DeliveryEngine.Route(gateway: gateway, credentials: tokens)
    }

    /// `tokens`: the provider tokens made so far, by team and key id (one per Apple key).
    static func apns(_ app: NodeConfig.App, prefix: String, alert: DefaultAlert, tokens cache: inout [String: SelfSignedTokens],
                     shared: (any SharedCredentialStore)?) throws(Failure) -> DeliveryEngine.Route {
        let key = app.apns.teamId + "\u{0}" + app.apns.keyId
        let tokens: SelfSignedTokens
        if let made = cache[key] {
            tokens = made
        } else {
            let signer: ES256Signer
            do {
                signer = try ES256Signer(pemRepresentation: String(contentsOfFile: app.apns.keyPath, encoding: .utf8))
            } catch {
                throw Failure(description: "\(prefix)apns.keyPath: \(app.apns.keyPath) is not a P-256 .p8 key")
            }
            tokens = APNsProviderTokens.make(signer: APNsProviderToken(keyID: app.apns.keyId, teamID: app.apns.teamId, signer: signer),
                                             timing: SharedTokenRule.Timing(renewalAge: app.apns.tokenRenewal,
                                                                            minimumInterval: app.apns.tokenMinInterval),
                                             shared: shared)
            cache[key] = tokens
        }
        let gateway = CredentialedGateway<APNsGateway>(
            configuration: .init(topic: app.apns.topic, host: apnsHost(app.apns), defaultAlert: alert),
            credential: { tokens.current() })
        return DeliveryEngine.Route(gateway: gateway, credentials: tokens)
    }

    /// `apns.host`, `apns.developmentHost` and `apns.useSandbox` as the gateway's `Host`.
    static func apnsHost(_ apns: NodeConfig.APNs) -> APNsGateway.Host {
        let production: String? = apns.host.isEmpty ? (apns.useSandbox ? APNsGateway.sandboxHost : nil) : apns.host
        if !apns.developmentHost.isEmpty { return .perEnvironment(production: production, development: apns.developmentHost) }
        if !apns.host.isEmpty { return .custom(apns.host) }
        return apns.useSandbox ? .sandbox : .byEnvironment
    }

    static func huawei(_ app: NodeConfig.App, transport: HTTPDeliveryTransport, probe: Bool) -> DeliveryEngine.Route {
        let tokens = HuaweiAccessTokens.make(clientID: app.huawei.appId, clientSecret: app.huawei.clientSecret,
                                             tokenURL: app.huawei.tokenURL,
                                             endpoint: HTTPOAuthTokenEndpoint(client: transport.providers))
        let gateway = CredentialedGateway<HuaweiGateway>(
            configuration: .init(appId: app.huawei.appId, baseURL: app.huawei.baseURL, validateOnly: probe),
            credential: { tokens.current() })
        return DeliveryEngine.Route(gateway: gateway, credentials: tokens)
    }

    static func harmony(_ app: NodeConfig.App, prefix: String, alert: DefaultAlert, probe: Bool) throws(Failure) -> DeliveryEngine.Route {
        let signer: HarmonyServiceAccountToken
        do {
            signer = try HarmonyServiceAccount(contentsOfFile: app.harmony.serviceAccountPath).token()
        } catch {
            throw Failure(description: "\(prefix)harmony.serviceAccountPath: \(app.harmony.serviceAccountPath): "
                          + "not a Huawei service account with an RSA private_key (\(error))")
        }
        let tokens = HarmonyServiceTokens.make(signer: signer)
        let gateway = CredentialedGateway<HarmonyGateway>(
            configuration: .init(projectId: app.harmony.projectId, baseURL: app.harmony.baseURL,
                                 defaultAlert: alert, testMessage: probe),
            credential: { tokens.current() })
        return DeliveryEngine.Route(gateway: gateway, credentials: tokens)
    }

    static func webPush(_ app: NodeConfig.App, prefix: String, config: NodeConfig) throws(Failure) -> DeliveryEngine.Route {
        let key: VAPID.Key
        do { key = try VAPIDKeyFile.loadOrCreate(app: app, config: config) } catch {
            throw Failure(description: "\(prefix)webpush.vapidKeyPath: \(error)")
        }
        let allowPrivate = config.webpush.allowPrivateEndpoints
        let check = RoutableHostCheck()
        let isRoutable: @Sendable (String) -> Bool = { host in allowPrivate || check.isRoutable(host) }
        let gateway = WebPushGateway(
            encryptor: CachingWebPushEncryptor(),
            authorizer: CachingVAPIDAuthorizer(key: key, subject: app.webpush.subject),
            isRoutable: isRoutable, allowsPlainHTTP: allowPrivate)
        return DeliveryEngine.Route(gateway: gateway, credentials: nil)
    }
}
