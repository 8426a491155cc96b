import Foundation
import HTTPClient
import PushDelivery

/// The adapter between the pure delivery core and `HTTPClient`: requests out, answers and
/// failures back, in the core's own types.
package enum TransportBinding {
    /// The client request for a gateway's request; `timeout` bounds the whole exchange (the
    /// engine passes the job's remaining ttl, so nothing is delivered after its expiry).
    package static func clientRequest(_ request: OutboundRequest, timeout: Duration? = nil) -> ClientRequest {
        ClientRequest(method: request.method, url: request.url, headers: request.headers, body: request.body,
                      timeout: timeout)
    }

    package static func answer(_ response: ClientResponse) -> ProviderAnswer {
        ProviderAnswer(status: response.status, headers: response.headers, body: response.body)
    }

    /// `TransportError` case for case; a refused header is an unusable request, as the core
    /// has no word for it.
    package static func failure(_ error: TransportError) -> TransportFailure {
        switch error {
        case .connectFailed: return .connectFailed
        case .timedOut: return .timedOut
        case .connectionReset: return .connectionReset
        case .tls: return .tls
        case .tooLarge: return .tooLarge
        case .invalidURL, .invalidHeader: return .invalidURL
        case .forbiddenAddress: return .forbiddenAddress
        case .cancelled: return .cancelled
        case .other: return .other
        }
    }
}
