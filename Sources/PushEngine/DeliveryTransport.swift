import Foundation
import HTTPClient
import PushDelivery
import PushProtocol
import PushSupport

/// Two `HTTPClient`s: one for FCM and APNs (and the OAuth token endpoint), one for Web Push
/// endpoints, which are subscriber-supplied URLs, with private addresses refused at connect
/// time unless `webpush.allowPrivateEndpoints`.
package final class HTTPDeliveryTransport: DeliveryTransport {
    package let providers: HTTPClient
    package let webPush: HTTPClient

    /// `userAgent`: see `DeliveryUserAgent`.
    package init(caFile: String?, allowPrivateEndpoints: Bool,
                userAgent: String = DeliveryUserAgent.value(version: NodeVersion.current, nodeID: nil)) throws(TransportError) {
        let ca = caFile.flatMap { $0.isEmpty ? nil : $0 }
        providers = try HTTPClient(configuration: HTTPClientConfiguration(
            caFile: ca, userAgent: userAgent, maxConnectionsPerHost: 2))
        webPush = try HTTPClient(configuration: HTTPClientConfiguration(
            caFile: ca, userAgent: userAgent, maxConnectionsPerHost: 2, refusePrivateAddresses: !allowPrivateEndpoints))
    }

    package func send(_ request: OutboundRequest, provider: Provider, timeout: Duration,
                     completion: @escaping @Sendable (Result<ProviderAnswer, TransportFailure>) -> Void) {
        let client = provider == .webpush ? webPush : providers
        client.send(TransportBinding.clientRequest(request, timeout: timeout)) { result in
            completion(result.map(TransportBinding.answer).mapError(TransportBinding.failure))
        }
    }

    package func shutdown() {
        providers.shutdown()
        webPush.shutdown()
    }
}
