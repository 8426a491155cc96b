import Foundation
import HTTPClient
import PushProtocol

/// Moves a gateway's request to its provider and reports the answer: the HTTP client in
/// production, an in-process fake in tests and benchmarks.
public protocol DeliveryTransport: Sendable {
    /// Starts the exchange; `completion` is called exactly once, on any thread (for the HTTP
    /// client, its loop thread: keep it short).
    func send(_ request: OutboundRequest, provider: Provider, timeout: Duration,
              completion: @escaping @Sendable (Result<ProviderAnswer, TransportError>) -> Void)
    /// Fails what is in flight and refuses new requests.
    func shutdown()
}

/// Two `HTTPClient`s: one for FCM and APNs (and the OAuth token endpoint), one for Web Push
/// endpoints, which are subscriber-supplied URLs, with private addresses refused at connect
/// time unless `webpush.allowPrivateEndpoints`.
public final class HTTPDeliveryTransport: DeliveryTransport {
    public let providers: HTTPClient
    public let webPush: HTTPClient

    /// `userAgent`: see `DeliveryUserAgent`.
    public init(caFile: String?, allowPrivateEndpoints: Bool,
                userAgent: String = DeliveryUserAgent.value(version: Node.version, nodeID: nil)) throws(TransportError) {
        let ca = caFile.flatMap { $0.isEmpty ? nil : $0 }
        providers = try HTTPClient(configuration: HTTPClientConfiguration(
            caFile: ca, userAgent: userAgent, maxConnectionsPerHost: 2))
        webPush = try HTTPClient(configuration: HTTPClientConfiguration(
            caFile: ca, userAgent: userAgent, maxConnectionsPerHost: 2, refusePrivateAddresses: !allowPrivateEndpoints))
    }

    public func send(_ request: OutboundRequest, provider: Provider, timeout: Duration,
                     completion: @escaping @Sendable (Result<ProviderAnswer, TransportError>) -> Void) {
        let client = provider == .webpush ? webPush : providers
        client.send(TransportBinding.clientRequest(request, timeout: timeout)) { result in
            completion(result.map(TransportBinding.answer))
        }
    }

    public func shutdown() {
        providers.shutdown()
        webPush.shutdown()
    }
}
