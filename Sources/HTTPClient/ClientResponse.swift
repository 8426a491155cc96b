/// A complete HTTP response, whatever its status: a 4xx or 5xx is an answer, not an error.
package struct ClientResponse: Sendable {
    package var status: Int
    /// Header fields by lowercased name; repeated fields are joined with `", "`.
    package var headers: [String: String]
    package var body: [UInt8]
    /// The major HTTP version the answer came over: 1 (HTTP/1.x) or 2 (HTTP/2).
    package var httpVersion: Int

    /// The value of a header field, by any capitalisation of its name.
    package func header(_ name: String) -> String? {
        headers[name.lowercased()]
    }
}
