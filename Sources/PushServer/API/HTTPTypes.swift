/// A request as the HTTP server hands it to the router: everything already read, body capped.
public struct HTTPRequest: Sendable {
    public var method: String
    /// The path without the query string, e.g. `/v1/notify`.
    public var path: String
    /// The raw query string without `?`, or nil when the request had none.
    public var query: String?
    /// Header names lowercased.
    public var headers: [String: String]
    public var body: [UInt8]

    public init(method: String, path: String, query: String? = nil, headers: [String: String] = [:], body: [UInt8] = []) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? { headers[name.lowercased()] }
}

public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(String, String)]
    public var body: [UInt8]

    public init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }
}
