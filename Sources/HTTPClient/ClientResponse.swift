/// A complete HTTP response, whatever its status: a 4xx or 5xx is an answer, not an error.
public struct ClientResponse: Sendable {
    public var status: Int
    /// Header fields by lowercased name; repeated fields are joined with `", "`.
    public var headers: [String: String]
    public var body: [UInt8]
    /// The major HTTP version the answer came over: 1 (HTTP/1.x) or 2 (HTTP/2).
    public var httpVersion: Int

    public init(status: Int, headers: [String: String] = [:], body: [UInt8] = [], httpVersion: Int = 2) {
        self.status = status
        self.headers = headers
        self.body = body
        self.httpVersion = httpVersion
    }

    /// The value of a header field, by any capitalisation of its name.
    public func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
