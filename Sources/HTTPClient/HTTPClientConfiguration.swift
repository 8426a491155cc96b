/// How an `HTTPClient` connects, times out and trusts servers.
///
/// Defaults suit the push providers: HTTP/2 over TLS with at most two connections per
/// host (multiplexing does the rest), short connect timeouts, and a 1 MiB response cap
/// (provider answers are small JSON documents).
package struct HTTPClientConfiguration: Sendable {
    /// Time allowed to open a connection (TCP + TLS handshake).
    package var connectTimeout: Duration
    /// Total time allowed for a request, from `send` to the last response byte, including
    /// time spent waiting for a free stream or connection. `ClientRequest.timeout` overrides it.
    package var requestTimeout: Duration
    /// A PEM file of extra CA certificates to trust (`tls.caFile`), e.g. a test CA.
    ///
    /// Semantics: when set, the file becomes libcurl's CA bundle (`CURLOPT_CAINFO`) and the
    /// system certificate directory stays configured as the CA path (`CURLOPT_CAPATH`, on
    /// Debian `/etc/ssl/certs`), so public CAs are still trusted through that directory.
    /// When `nil`, libcurl's built-in defaults (the system bundle) apply unchanged.
    package var caFile: String?
    /// Largest response body accepted; a larger one fails with `TransportError.tooLarge`.
    package var maxResponseBytes: Int
    /// The `User-Agent` header sent with every request.
    package var userAgent: String
    /// Upper bound of connections to one host (`CURLMOPT_MAX_HOST_CONNECTIONS`). Requests
    /// beyond what these connections carry wait inside the client, they are not dropped.
    package var maxConnectionsPerHost: Int
    /// Streams one HTTP/2 connection may carry at once (`CURLMOPT_MAX_CONCURRENT_STREAMS`);
    /// the server's `SETTINGS_MAX_CONCURRENT_STREAMS` lowers it further.
    package var maxConcurrentStreams: Int
    /// Idle easy handles kept for reuse.
    package var handlePoolSize: Int
    /// Refuse to connect to private, loopback, link-local and reserved IP addresses
    /// (checked on the resolved address at connect time): for a client that sends to
    /// subscriber-supplied URLs (Web Push). Such requests fail with `.forbiddenAddress`.
    /// The policy is per client, so every pooled connection was opened under it.
    package var refusePrivateAddresses: Bool
    /// An explicit proxy URL. `nil` means no proxy: the `http_proxy`/`https_proxy`
    /// environment variables libcurl would otherwise honour are ignored.
    package var proxy: String?
    /// Which engine carries `https://` requests. Without a proxy it is nghttp2 (`H2Engine`),
    /// which measured 5–8× libcurl 7.88's multi interface here (`PushBench http --engine`);
    /// `http://`, proxied and HTTP/1.1-only origins always go through libcurl.
    package var httpsEngine: HTTPSEngine
    /// An HTTP/2 connection that has carried no stream for this long is closed (nghttp2 engine).
    package var idleConnectionTimeout: Duration
    /// An HTTP/2 connection with streams in flight and no frame for this long is sent a PING;
    /// when its ACK is `pingTimeout` late the connection is lost, and its streams are sent
    /// again like those of any lost connection (nghttp2 engine). A silently dead connection is
    /// found this way rather than by each request's timeout.
    package var pingAfterQuiet: Duration
    package var pingTimeout: Duration

    /// The implementations of HTTPS requests.
    package enum HTTPSEngine: String, Sendable {
        case nghttp2
        case libcurl
    }

    package init(
        connectTimeout: Duration = .seconds(10),
        requestTimeout: Duration = .seconds(30),
        caFile: String? = nil,
        maxResponseBytes: Int = 1 << 20,
        userAgent: String = "pushnode",
        maxConnectionsPerHost: Int = 1,
        maxConcurrentStreams: Int = 1000,
        handlePoolSize: Int = 256,
        refusePrivateAddresses: Bool = false,
        proxy: String? = nil,
        httpsEngine: HTTPSEngine = .nghttp2,
        idleConnectionTimeout: Duration = .seconds(90),
        pingAfterQuiet: Duration = .seconds(10),
        pingTimeout: Duration = .seconds(5)
    ) {
        self.connectTimeout = connectTimeout
        self.requestTimeout = requestTimeout
        self.caFile = caFile
        self.maxResponseBytes = maxResponseBytes
        self.userAgent = userAgent
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.maxConcurrentStreams = maxConcurrentStreams
        self.handlePoolSize = handlePoolSize
        self.refusePrivateAddresses = refusePrivateAddresses
        self.proxy = proxy
        self.httpsEngine = httpsEngine
        self.idleConnectionTimeout = idleConnectionTimeout
        self.pingAfterQuiet = pingAfterQuiet
        self.pingTimeout = pingTimeout
    }
}

extension Duration {
    /// Whole milliseconds, rounded up so a tiny positive duration never becomes 0 ("no limit" to curl).
    var wholeMilliseconds: Int {
        let (seconds, attoseconds) = components
        let ms = seconds * 1000 + (attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000
        return Int(max(ms, 1))
    }
}
