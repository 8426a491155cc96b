/// Why a request got no HTTP answer. A received 4xx/5xx is a `ClientResponse`, never this.
package enum TransportError: Error, Sendable, Equatable {
    /// DNS failed or the TCP connection could not be opened.
    case connectFailed
    /// The connect or total timeout ran out.
    case timedOut
    /// The connection died, was reset, or got GOAWAY / RST_STREAM before a full answer
    /// (already retried once by the client).
    case connectionReset
    /// The TLS handshake or certificate verification failed.
    case tls(String)
    /// The response body exceeded `maxResponseBytes`.
    case tooLarge
    /// The URL is malformed or not `http`/`https`.
    case invalidURL
    /// A header name or value holds a character that cannot go on the wire (CR, LF,
    /// NUL, or a colon or space in a name): refused rather than sent, so data from a
    /// registration can never inject a header.
    case invalidHeader
    /// The host resolved only to private or reserved addresses, which this client refuses
    /// (`HTTPClientConfiguration.refusePrivateAddresses`).
    case forbiddenAddress
    /// The client was shut down before the request finished.
    case cancelled
    /// Any other libcurl failure, with its `CURLcode` and message.
    case other(code: Int, message: String)

    /// Whether sending the same request again later may succeed.
    package var isRetryable: Bool {
        switch self {
        case .connectFailed, .timedOut, .connectionReset: true
        case .tls, .tooLarge, .invalidURL, .invalidHeader, .forbiddenAddress, .cancelled, .other: false
        }
    }

    /// A stable identifier for logs and metrics (never includes the URL).
    package var code: String {
        switch self {
        case .connectFailed: "transport.connect_failed"
        case .timedOut: "transport.timed_out"
        case .connectionReset: "transport.connection_reset"
        case .tls: "transport.tls"
        case .tooLarge: "transport.too_large"
        case .invalidURL: "transport.invalid_url"
        case .invalidHeader: "transport.invalid_header"
        case .forbiddenAddress: "transport.forbidden_address"
        case .cancelled: "transport.cancelled"
        case .other: "transport.other"
        }
    }
}
