/// Why a request got no HTTP answer at all. Mirrors `HTTPClient.TransportError` case for case
/// so the engine's adapter is a plain switch.
package enum TransportFailure: Error, Sendable, Equatable {
    /// DNS failed or the connection could not be opened.
    case connectFailed
    /// The connect or total timeout ran out.
    case timedOut
    /// Reset, closed, or HTTP/2 GOAWAY / RST_STREAM before a full answer.
    case connectionReset
    /// The TLS handshake or certificate check failed.
    case tls
    /// The answer was larger than the client accepts.
    case tooLarge
    /// The URL could not be used.
    case invalidURL
    /// The connect-time guard refused the address the host resolved to (private, loopback, …).
    case forbiddenAddress
    /// The client shut down first (the outbox row stays and resumes after restart).
    case cancelled
    /// Anything else the client reported.
    case other

    /// The classification every gateway shares: a request that may not have reached the
    /// provider is retried; one the client could not even form is a configuration problem.
    package var outcome: DeliveryOutcome {
        switch self {
        case .invalidURL:
            return .rejected(DeliveryReason(.transportInvalidURL))
        case .forbiddenAddress:
            // The send-time verdict of the address guard: a retry would not fix it.
            return .rejected(DeliveryReason(.notRoutable, detail: DeliveryReason.Code.transportForbiddenAddress.rawValue))
        default:
            return .transient(DeliveryReason(code, detail: nil), retryAfter: nil)
        }
    }

    package var code: DeliveryReason.Code {
        switch self {
        case .connectFailed: return .transportConnectFailed
        case .timedOut: return .transportTimedOut
        case .connectionReset: return .transportConnectionReset
        case .tls: return .transportTLS
        case .tooLarge: return .transportTooLarge
        case .invalidURL: return .transportInvalidURL
        case .forbiddenAddress: return .transportForbiddenAddress
        case .cancelled: return .transportCancelled
        case .other: return .transportOther
        }
    }
}
