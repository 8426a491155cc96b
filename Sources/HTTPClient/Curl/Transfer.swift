import CCurl
import PushNet

/// One request on its way: the easy handle carrying it, what has arrived so far, and
/// whom to tell when it ends. Lives on the event-loop thread only.
final class Transfer {
    typealias Completion = Submission.Completion

    let request: ClientRequest
    let completion: Completion
    /// `scheme://host:port`, the key of the connection pool the request uses.
    let origin: String
    /// When the request must be finished, counted from `send`.
    let deadline: ContinuousClock.Instant
    private let maxResponseBytes: Int

    var easy: CurlEasy?
    /// Set when the async caller's task is cancelled.
    var cancellation: CancellationFlag?
    /// Sends so far: 1, or 2 after a retry on a dead connection.
    var attempts = 0
    /// This attempt must open a new connection (`CURLOPT_FRESH_CONNECT`).
    var needsFreshConnection = false
    /// This attempt opens the fresh connection other retries to the origin wait for.
    var leadsFreshConnection = false
    private var headerList: HeaderList?

    private(set) var body: [UInt8] = []
    private(set) var headers: [String: String] = [:]
    /// A status line arrived: the server answered, so a failure now is not retried.
    private(set) var sawStatusLine = false
    /// The body cap was hit: the write callback refused bytes.
    private(set) var exceededBodyCap = false
    /// Connections may only go to publicly routable addresses (`AddressClass`).
    private(set) var refusesPrivateAddresses = false
    /// The open-socket callback refused an address for this attempt.
    private(set) var refusedAddress = false

    init(request: ClientRequest, deadline: ContinuousClock.Instant, maxResponseBytes: Int, completion: @escaping Completion) {
        self.request = request
        self.origin = HTTPClient.origin(of: request.url)
        self.deadline = deadline
        self.maxResponseBytes = maxResponseBytes
        self.completion = completion
    }

    /// Sets every option of one attempt on `easy` (freshly reset).
    func configure(_ easy: CurlEasy, configuration: HTTPClientConfiguration, now: ContinuousClock.Instant) throws(TransportError) {
        body = []
        headers = [:]
        sawStatusLine = false
        exceededBodyCap = false
        refusedAddress = false
        refusesPrivateAddresses = configuration.refusePrivateAddresses

        let remaining = deadline - now
        guard remaining > .zero else { throw .timedOut }

        try easy.attachErrorBuffer()
        try easy.set(CURLOPT_URL, request.url)
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_HTTP_VERSION, pushnode_curl_http_version_2tls())
        try easy.set(CURLOPT_PIPEWAIT, true)
        try easy.set(CURLOPT_FRESH_CONNECT, needsFreshConnection)
        try easy.set(CURLOPT_FOLLOWLOCATION, false)
        try easy.set(CURLOPT_NOSIGNAL, true)
        try easy.set(CURLOPT_TCP_KEEPALIVE, true)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, min(configuration.connectTimeout, remaining).wholeMilliseconds)
        try easy.set(CURLOPT_TIMEOUT_MS, remaining.wholeMilliseconds)
        try easy.set(CURLOPT_USERAGENT, configuration.userAgent)
        if let caFile = configuration.caFile {
            try easy.set(CURLOPT_CAINFO, caFile)
        }
        try easy.set(CURLOPT_PROXY, configuration.proxy ?? "")
        try configureMethodAndBody(easy)

        let list = try HeaderList(request.headers)
        list.append("Expect:")  // no 100-continue round trip for bodies over 1 KiB
        headerList = list
        try easy.set(CURLOPT_HTTPHEADER, pointer: list.list)

        let context = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_WRITEDATA, pointer: context)
        try easy.set(CURLOPT_HEADERDATA, pointer: context)
        _ = pushnode_curl_easy_setopt_write(easy.handle, CurlCallbacks.body)
        _ = pushnode_curl_easy_setopt_header(easy.handle, CurlCallbacks.header)
        if refusesPrivateAddresses {
            try easy.set(CURLOPT_OPENSOCKETDATA, pointer: context)
            _ = pushnode_curl_easy_setopt_opensocket(easy.handle, CurlCallbacks.openSocket)
        }
        self.easy = easy
    }

    private func configureMethodAndBody(_ easy: CurlEasy) throws(TransportError) {
        let method = request.method.uppercased()
        switch method {
        case "GET" where request.body.isEmpty:
            try easy.set(CURLOPT_HTTPGET, true)
            return
        case "HEAD":
            try easy.set(CURLOPT_NOBODY, true)
            return
        case "POST":
            break
        default:
            try easy.set(CURLOPT_CUSTOMREQUEST, method)
        }
        if method != "GET" && method != "DELETE" || !request.body.isEmpty {
            try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, size: request.body.count)
            // COPYPOSTFIELDS copies the bytes, so the request may go away before curl sends.
            if request.body.isEmpty {
                try easy.set(CURLOPT_COPYPOSTFIELDS, "")
            } else {
                let rc = request.body.withUnsafeBytes { pushnode_curl_easy_setopt_ptr(easy.handle, CURLOPT_COPYPOSTFIELDS, $0.baseAddress) }
                guard rc == CURLE_OK else { throw TransportError(curlCode: rc, message: "request body") }
            }
        }
    }

    /// Whether the open-socket callback may connect to `address` (4 or 16 bytes).
    func mayConnect(to address: [UInt8]) -> Bool {
        guard refusesPrivateAddresses, !Self.isPubliclyRoutable(address) else { return true }
        refusedAddress = true
        return false
    }

    /// The connect-time half of the SSRF guard: the same `AddressClass` rule the register-time
    /// endpoint check applies, now to the address actually dialled (so a name that resolved to a
    /// public address at registration and to a private one now is refused).
    static func isPubliclyRoutable(_ address: [UInt8]) -> Bool {
        IPAddress(bytes: address).map { AddressClass.of($0).isPubliclyRoutable } ?? false
    }

    /// Body bytes from the write callback; returns how many were taken.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Int {
        guard body.count + bytes.count <= maxResponseBytes else {
            exceededBodyCap = true
            return 0
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    /// A header line from the header callback: a status line starts a new header block
    /// (after a 1xx answer), a field line is stored under its lowercased name.
    func receiveHeaderLine(_ bytes: UnsafeRawBufferPointer) {
        let line = String(decoding: bytes, as: UTF8.self)
        if line.hasPrefix("HTTP/") {
            sawStatusLine = true
            headers = [:]
            return
        }
        guard let colon = line.firstIndex(of: ":") else { return }
        let name = line[..<colon].lowercased()
        let value = line[line.index(after: colon)...].trimmingWhitespace()
        if let existing = headers[name] {
            headers[name] = existing + ", " + value
        } else {
            headers[name] = value
        }
    }

    /// The finished answer, read from `easy` after a successful transfer.
    func response(from easy: CurlEasy) -> ClientResponse {
        let version = easy.info(CURLINFO_HTTP_VERSION)
        let major = version == CURL_HTTP_VERSION_2_0 ? 2 : version == CURL_HTTP_VERSION_3 ? 3 : 1
        return ClientResponse(status: easy.info(CURLINFO_RESPONSE_CODE), headers: headers, body: body, httpVersion: major)
    }

    /// Drops the header list once curl no longer reads it.
    func releaseRequestResources() {
        headerList = nil
    }
}

extension Substring {
    func trimmingWhitespace() -> String {
        guard let first = firstIndex(where: { !$0.isWhitespace }), let last = lastIndex(where: { !$0.isWhitespace }) else { return "" }
        return String(self[first...last])
    }
}
