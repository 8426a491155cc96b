/// The signed `/v1` routes of PROTOCOL §3 and their methods. The router answers 404 for other
/// paths and 405 for other methods before it authenticates; the service handler sees only these.
package enum RouteTable {
    package static let authenticated: [String: Set<String>] = [
        "/v1/tokens": ["GET", "POST"],
        "/v1/tokens/revoke": ["POST"],
        "/v1/spaces": ["POST"],
        "/v1/spaces/remove": ["POST"],
        "/v1/subscriptions": ["GET", "POST", "PUT"],
        "/v1/subscriptions/remove": ["POST"],
        "/v1/notify": ["POST"],
        "/v1/notify/silent": ["POST"],
    ]

    /// The unsigned routes, each GET only.
    package static let unsigned: Set<String> = ["/healthz", "/readyz", "/metrics", "/v1/capabilities"]

    /// The methods allowed on `path`, or nil when the path is unknown.
    package static func methods(for path: String) -> Set<String>? {
        if unsigned.contains(path) { return ["GET"] }
        return authenticated[path]
    }
}
