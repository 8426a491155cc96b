import Foundation
import HTTPClient

/// The adapter between the pure delivery core and `HTTPClient`: requests out, answers and
/// failures back, in the core's own types.
public enum TransportBinding {
    /// The client request for a gateway's request; `timeout` bounds the whole exchange (the
    /// engine passes the job's remaining ttl, so nothing is delivered after its expiry).
    public static func clientRequest(_ request: OutboundRequest, timeout: Duration? = nil) -> ClientRequest {
        ClientRequest(method: request.method, url: request.url, headers: request.headers, body: request.body,
                      timeout: timeout)
    }

    public static func answer(_ response: ClientResponse) -> ProviderAnswer {
        ProviderAnswer(status: response.status, headers: response.headers, body: response.body)
    }

    /// `TransportError` case for case; the two kinds the core has no word for map to what the
    /// client would have meant: a refused header is an unusable request, a private address is
    /// an endpoint that is not routable now.
    public static func failure(_ error: TransportError) -> TransportFailure {
        switch error {
        case .connectFailed: return .connectFailed
        case .timedOut: return .timedOut
        case .connectionReset: return .connectionReset
        case .tls: return .tls
        case .tooLarge: return .tooLarge
        case .invalidURL, .invalidHeader: return .invalidURL
        case .forbiddenAddress: return .other
        case .cancelled: return .cancelled
        case .other: return .other
        }
    }

    /// What a client failure means for the delivery. A refused private address is a rejection
    /// (the guard's send-time verdict), not something a retry would fix.
    public static func outcome(_ error: TransportError) -> DeliveryOutcome {
        if case .forbiddenAddress = error { return .rejected(DeliveryReason(.notRoutable, detail: error.code)) }
        return failure(error).outcome
    }
}
