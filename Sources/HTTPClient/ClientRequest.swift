/// One HTTP request as the gateways build it; the client only moves its bytes.
public struct ClientRequest: Sendable {
    /// `GET`, `POST`, `PUT`, `DELETE`, `HEAD`, … (upper case).
    public var method: String
    /// An absolute `http://` or `https://` URL. Other schemes fail with `invalidURL`.
    public var url: String
    /// Header fields in order; a name may repeat.
    public var headers: [(String, String)]
    public var body: [UInt8]
    /// Overrides `HTTPClientConfiguration.requestTimeout` for this request.
    public var timeout: Duration?

    public init(
        method: String = "GET",
        url: String,
        headers: [(String, String)] = [],
        body: [UInt8] = [],
        timeout: Duration? = nil
    ) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.timeout = timeout
    }
}
