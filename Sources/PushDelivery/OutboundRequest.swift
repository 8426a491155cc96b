/// One HTTP request a gateway built; the transport only moves its bytes.
/// (The engine adapts it to `HTTPClient.ClientRequest`.)
package struct OutboundRequest: Sendable {
    package var method = "POST"
    /// Absolute URL. Web Push endpoints and APNs paths carry the token: never log it whole.
    package var url: String
    /// Header fields in order, names lowercase.
    package var headers: [(String, String)]
    package var body: [UInt8]

    /// The value of the first header field named `name` (any case).
    package func header(_ name: String) -> String? {
        let lowered = name.lowercased()
        return headers.first { $0.0.lowercased() == lowered }?.1
    }
}

/// A provider's HTTP answer, whatever its status. (Adapted from `HTTPClient.ClientResponse`.)
package struct ProviderAnswer: Sendable, Equatable {
    package var status: Int
    /// Header fields by lowercased name.
    package var headers: [String: String]
    package var body: [UInt8]

    package init(status: Int, headers: [String: String] = [:], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    package func header(_ name: String) -> String? { headers[name.lowercased()] }
}
