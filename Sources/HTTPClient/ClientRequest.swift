/// One HTTP request as the gateways build it; the client only moves its bytes.
package struct ClientRequest: Sendable {
    /// `GET`, `POST`, `PUT`, `DELETE`, `HEAD`, … (upper case).
    package var method: String
    /// An absolute `http://` or `https://` URL. Other schemes fail with `invalidURL`.
    package var url: String
    /// Header fields in order; a name may repeat.
    package var headers: [(String, String)]
    package var body: [UInt8]
    /// Overrides `HTTPClientConfiguration.requestTimeout` for this request.
    package var timeout: Duration?

    package init(
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
