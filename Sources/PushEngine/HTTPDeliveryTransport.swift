import Foundation
import HTTPClient
import PushDelivery
import PushMetrics
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
                userAgent: String = DeliveryUserAgent.value(version: NodeVersion.current, nodeID: nil),
                engine: HTTPClientConfiguration.HTTPSEngine = .nghttp2) throws(TransportError) {
        let ca = caFile.flatMap { $0.isEmpty ? nil : $0 }
        providers = try HTTPClient(configuration: HTTPClientConfiguration(
            caFile: ca, userAgent: userAgent, maxConnectionsPerHost: 2, httpsEngine: engine))
        webPush = try HTTPClient(configuration: HTTPClientConfiguration(
            caFile: ca, userAgent: userAgent, maxConnectionsPerHost: 2, refusePrivateAddresses: !allowPrivateEndpoints,
            httpsEngine: engine))
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

    /// The clients' own counts, read at scrape time: streams sent again after their connection
    /// or stream was lost (not a provider's error answer, and never a backoff), and connections
    /// opened. `client` is `providers` (FCM, APNs, OAuth) or `webpush`.
    package func registerMetrics(in registry: MetricsRegistry) {
        registry.counter("pushnode_http_client_retries_total",
                         help: "Requests the HTTP client sent again at once after a lost connection, GOAWAY or reset stream.",
                         labels: ["client"], of: self) { Self.series($0) { $0.retries } }
        registry.counter("pushnode_http_client_connections_opened_total",
                         help: "Connections the HTTP client opened to providers and push services.",
                         labels: ["client"], of: self) { Self.series($0) { $0.connectionsOpened } }
    }

    private static func series(_ transport: HTTPDeliveryTransport, _ value: (HTTPClientStats) -> Int) -> [([String], Double)] {
        [(["providers"], Double(value(transport.providers.stats))), (["webpush"], Double(value(transport.webPush.stats)))]
    }
}
