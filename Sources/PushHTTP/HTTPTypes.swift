import PushNet

/// A request as the HTTP server hands it to the router: everything already read, body capped.
/// Built by the server (and, with `@testable`, the tests and the fuzz harness): the memberwise
/// initialiser is Swift's.
package struct HTTPRequest: Sendable {
    package var method: String
    /// The path without the query string, e.g. `/v1/notify`.
    package var path: String
    /// The raw query string without `?`, or nil when the request had none.
    package var query: String?
    /// Header names lowercased.
    package var headers: [String: String] = [:]
    package var body: [UInt8] = []
    /// The client it is charged to by per-address limits (`ClientAddress.key`); nil when unknown.
    package var client: String?
    /// The peer's address (the connection's, never a header's); nil when the listener could not tell.
    package var peer: IPAddress?

    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}

package struct HTTPResponse: Sendable {
    package var status: Int
    package var headers: [(String, String)] = []
    package var body: [UInt8] = []
}
