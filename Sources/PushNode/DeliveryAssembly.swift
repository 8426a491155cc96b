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
    package init(config: NodeConfig, platforms: Set<Platform>) throws(Failure) {
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
