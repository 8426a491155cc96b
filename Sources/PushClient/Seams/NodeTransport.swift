/// The node's answer to one request, as the transport hands it back.
public struct NodeResponse: Sendable, Equatable {
    public var status: Int
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { a, _ in a })
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

/// Moves one request to the node and back: the seam between PushClient's logic and the network.
///
/// The host binds it to the HTTP client plus the RFC 9421 signer (PROTOCOL §2): every call must be
/// signed afresh with the account key (a new `created` and `nonce`), because retries resend the same
/// body and a reused nonce is `auth.replayed`. `GET /v1/capabilities` needs no signature.
///
/// Throw for anything that is not an HTTP answer (connect/TLS/timeout/reset): PushClient treats
/// every thrown error as a transient network failure and retries it.
public protocol NodeTransport: Sendable {
    /// - Parameters:
    ///   - method: `GET`, `POST` or `PUT`.
    ///   - path: e.g. `/v1/notify`.
    ///   - query: the raw query string without `?`, or nil.
    ///   - body: JSON bytes (`Content-Type: application/json`), or nil for none.
    func send(method: String, path: String, query: String?, body: [UInt8]?) async throws -> NodeResponse
}
