import Foundation
import HTTPClient
import PushConfig
import PushCrypto
import PushDelivery
import PushEngine
import PushProtocol

/// Builds the gateways, credentials and transport of the configured providers: used by the
/// node's delivery engine and by `pushnode send`.
package struct DeliveryAssembly: Sendable {
    package let routes: [DeliveryEngine.Route]
    package let transport: HTTPDeliveryTransport

    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// Only providers with credentials get a route (`config.enabledPlatforms`); Web Push always.
    /// `probe`: Huawei's requests are checked and delivered to nobody (`validate_only` on v1, a
    /// test message on v3), for `pushnode check --live`.
    package init(config: NodeConfig, platforms: Set<Platform>, probe: Bool = false) throws(Failure) {
        do {
            transport = try HTTPDeliveryTransport(caFile: config.tls.caFile,
                                                  allowPrivateEndpoints: config.webpush.allowPrivateEndpoints,
                                                  userAgent: DeliveryUserAgent.value(config: config),
                                                  engine: config.delivery.httpEngine == .libcurl ? .libcurl : .nghttp2)
        } catch {
            throw Failure(description: "delivery: cannot start the HTTP client: \(error.code)")
        }
        let alert = DefaultAlert(title: config.notifications.defaultAlert.title, body: config.notifications.defaultAlert.body)
        var routes: [DeliveryEngine.Route] = []
        if platforms.contains(where: { $0.provider == .fcm }) {
            routes.append(try Self.fcm(config: config, alert: alert, transport: transport))
        }
        if platforms.contains(where: { $0.provider == .apns }) {
            routes.append(try Self.apns(config: config, alert: alert))
        }
        if platforms.contains(.webpush) {
            routes.append(try Self.webPush(config: config))
        }
        if platforms.contains(.huawei) {
            routes.append(Self.huawei(config: config, transport: transport, probe: probe))
        }
        if platforms.contains(.harmony) {
            routes.append(try Self.harmony(config: config, alert: alert, probe: probe))
        }
        self.routes = routes
    }

    package func route(for provider: Provider) -> DeliveryEngine.Route? {
        routes.first { $0.gateway.provider == provider }
    }

    static func fcm(config: NodeConfig, alert: DefaultAlert, transport: HTTPDeliveryTransport) throws(Failure) -> DeliveryEngine.Route {
        let account: ServiceAccount
        let assertion: GoogleServiceAccountAssertion
        do {
            account = try ServiceAccount(contentsOfFile: config.fcm.credentialsPath)
            assertion = try account.assertion()
        } catch {
            throw Failure(description: "fcm.credentialsPath: \(config.fcm.credentialsPath): \(error)")
        }
        let tokens = FCMAccessTokens.make(assertion: assertion, endpoint: HTTPOAuthTokenEndpoint(client: transport.providers))
        let gateway = FCMGateway(configuration: .init(projectId: account.projectId, baseURL: config.fcm.baseURL,
                                                      defaultAlert: alert),
                                 accessToken: { tokens.current() })
        return DeliveryEngine.Route(gateway: gateway, credentials: tokens)
    }

    static func apns(config: NodeConfig, alert: DefaultAlert) throws(Failure) -> DeliveryEngine.Route {
        let signer: ES256Signer
        do {
            signer = try ES256Signer(pemRepresentation: String(contentsOfFile: config.apns.keyPath, encoding: .utf8))
        } catch {
            throw Failure(description: "apns.keyPath: \(config.apns.keyPath) is not a P-256 .p8 key")
        }
        let tokens = APNsProviderTokens.make(signer: APNsProviderToken(keyID: config.apns.keyId, teamID: config.apns.teamId,
                                                                  signer: signer))
        var host = APNsGateway.Host.byEnvironment
        if !config.apns.host.isEmpty {
            host = .custom(config.apns.host)
        } else if config.apns.useSandbox {
            host = .sandbox
        }
        let gateway = APNsGateway(configuration: .init(topic: config.apns.topic, host: host, defaultAlert: alert),
                                  providerToken: { tokens.current() })
        return DeliveryEngine.Route(gateway: gateway, credentials: tokens)
    }

    static func huawei(config: NodeConfig, transport: HTTPDeliveryTransport, probe: Bool) -> DeliveryEngine.Route {
        let tokens = HuaweiAccessTokens.make(clientID: config.huawei.appId, clientSecret: config.huawei.clientSecret,
                                             tokenURL: config.huawei.tokenURL,
                                             endpoint: HTTPOAuthTokenEndpoint(client: transport.providers))
        let gateway = HuaweiGateway(configuration: .init(appId: config.huawei.appId, baseURL: config.huawei.baseURL,
                                                         validateOnly: probe),
                                    accessToken: { tokens.current() })
        return DeliveryEngine.Route(gateway: gateway, credentials: tokens)
    }

    static func harmony(config: NodeConfig, alert: DefaultAlert, probe: Bool) throws(Failure) -> DeliveryEngine.Route {
        let signer: HarmonyServiceAccountToken
        do {
            signer = try HarmonyServiceAccount(contentsOfFile: config.harmony.serviceAccountPath).token()
        } catch {
            throw Failure(description: "harmony.serviceAccountPath: \(config.harmony.serviceAccountPath): "
                          + "not a Huawei service account with an RSA private_key (\(error))")
        }
        let tokens = HarmonyServiceTokens.make(signer: signer)
        let gateway = HarmonyGateway(configuration: .init(projectId: config.harmony.projectId, baseURL: config.harmony.baseURL,
                                                          defaultAlert: alert, testMessage: probe),
                                     serviceToken: { tokens.current() })
        return DeliveryEngine.Route(gateway: gateway, credentials: tokens)
    }

    static func webPush(config: NodeConfig) throws(Failure) -> DeliveryEngine.Route {
        let key: VAPID.Key
        do { key = try VAPIDKeyFile.loadOrCreate(config: config) } catch {
            throw Failure(description: "webpush.vapidKeyPath: \(error)")
        }
        let allowPrivate = config.webpush.allowPrivateEndpoints
        let check = RoutableHostCheck()
        let isRoutable: @Sendable (String) -> Bool = { host in allowPrivate || check.isRoutable(host) }
        let gateway = WebPushGateway(
            encryptor: CachingWebPushEncryptor(),
            authorizer: CachingVAPIDAuthorizer(key: key, subject: config.webpush.subject),
            isRoutable: isRoutable, allowsPlainHTTP: allowPrivate)
        return DeliveryEngine.Route(gateway: gateway, credentials: nil)
    }
}
