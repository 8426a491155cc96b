import HTTPClient
import PushCrypto
import PushProtocol

/// `NodeTransport` over the project's HTTP client, every request signed with the account key per
/// PROTOCOL §2 (RFC 9421 + RFC 9530).
///
/// Each call is signed afresh — a new `created` and `nonce` — while the body bytes are exactly
/// those given, so a retry resends identical bytes under a new signature (a reused nonce would be
/// `auth.replayed`). `GET /v1/capabilities` goes out unsigned, as the node serves it.
public struct HTTPNodeTransport: NodeTransport {
    public struct Configuration: Sendable {
        /// The node's base URL, e.g. `https://push.example.org` or `http://127.0.0.1:8765`; a path
        /// prefix (`https://example.org/push`) is kept. No trailing slash needed.
        public var baseURL: String
        /// A PEM file of extra CA certificates (a private or test CA).
        public var caFile: String?
        /// Total time allowed for one request.
        public var requestTimeout: Duration
        public var connectTimeout: Duration

        public init(baseURL: String = HTTPNodeTransport.defaultBaseURL, caFile: String? = nil,
                    requestTimeout: Duration = .seconds(30), connectTimeout: Duration = .seconds(10)) {
            self.baseURL = baseURL
            self.caFile = caFile
            self.requestTimeout = requestTimeout
            self.connectTimeout = connectTimeout
        }
    }

    /// `http://127.0.0.1:8765`: the node's default listen address.
    public static let defaultBaseURL = "http://127.0.0.1:8765"

    public let configuration: Configuration
    private let client: HTTPClient
    private let signer: HTTPSigner
    private let base: String

    /// Makes its own `HTTPClient` from the configuration.
    /// - Throws: `PushClientError` `client.invalid_argument` for a base URL that is not http(s),
    ///   `client.network` when the HTTP client cannot start.
    public init(configuration: Configuration, account: AccountKey) throws(PushClientError) {
        let client: HTTPClient
        do {
            client = try HTTPClient(configuration: HTTPClientConfiguration(
                connectTimeout: configuration.connectTimeout, requestTimeout: configuration.requestTimeout,
                caFile: configuration.caFile, userAgent: "pushnode-client"))
        } catch {
            throw PushClientError(code: .network, message: "the HTTP client did not start: \(error.code)")
        }
        try self.init(client: client, configuration: configuration, signer: HTTPSigner(key: account))
    }

    /// Shares an existing client; `signer` may carry an injected clock and nonce (tests).
    package init(client: HTTPClient, configuration: Configuration, signer: HTTPSigner) throws(PushClientError) {
        var base = configuration.baseURL
        while base.hasSuffix("/") { base.removeLast() }
        guard base.hasPrefix("http://") || base.hasPrefix("https://") else {
            throw PushClientError(code: .invalidArgument, message: "the node URL must start with http:// or https://")
        }
        self.configuration = configuration
        self.client = client
        self.signer = signer
        self.base = base
    }

    /// The account the requests are signed for.
    public var accountID: AccountID { signer.key.accountID }

    public func send(method: String, path: String, query: String?, body: [UInt8]?) async throws -> NodeResponse {
        let bytes = body ?? []
        var headers: [(String, String)] = [("Accept", "application/json")]
        if body != nil { headers.append(("Content-Type", "application/json")) }
        if !(method == "GET" && path == "/v1/capabilities") {
            let signed = try signer.sign(method: method, path: path, query: query, body: bytes)
            headers += signed.fields.map { ($0.name, $0.value) }
        }
        var url = base + path
        if let query, !query.isEmpty { url += "?" + query }
        let response = try await client.send(ClientRequest(method: method, url: url, headers: headers, body: bytes))
        return NodeResponse(status: response.status, headers: response.headers, body: response.body)
    }
}
