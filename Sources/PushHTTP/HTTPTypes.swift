import PushNet

/// A request as the HTTP server hands it to the router: everything already read, body capped.
package struct HTTPRequest: Sendable {
    package var method: String
    /// The path without the query string, e.g. `/v1/notify`.
    package var path: String
    /// The raw query string without `?`, or nil when the request had none.
    package var query: String?
    /// Header names lowercased.
    package var headers: [String: String]
    package var body: [UInt8]
    /// The client it is charged to by per-address limits (`ClientAddress.key`); nil when unknown.
    package var client: String?
    /// The peer's address (the connection's, never a header's); nil when the listener could not tell.
    package var peer: IPAddress?

    package init(method: String, path: String, query: String? = nil, headers: [String: String] = [:], body: [UInt8] = [],
                 client: String? = nil, peer: IPAddress? = nil) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
        self.client = client
        self.peer = peer
    }

    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}

package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: [(String, String)] = []
    package var body: [UInt8] = []
}
