import PushNet

/// The parts of an `https://` URL the HTTP/2 engine sends to: where to connect, and the
/// `:authority` and `:path` of the request. Anything else (`http://`, user info, a bad port)
/// is not its URL: `parse` answers nil and the request goes to libcurl, which applies its own
/// rules (and fails a malformed URL with `invalidURL`).
struct H2Target: Equatable {
    /// The host name, or the IP literal without brackets, lowercased.
    var host: String
    var port: Int
    /// `host[:port]` as the URL has it, lowercased.
    var authority: String
    /// Path and query; `/` when the URL has no path.
    var path: String
    /// The host as an IP address when it is a literal (no DNS lookup then).
    var address: IPAddress?

    /// The connection pool key, the same string as `HTTPClient.origin(of:)`.
    var origin: String { "https://" + authority }

    static func parse(_ url: String) -> H2Target? {
        // The gateways write lowercase schemes and hosts: check that first, lowercase only otherwise.
        let scheme = "https://"
        guard url.hasPrefix(scheme) || url.lowercased().hasPrefix(scheme) else { return nil }
        let rest = url.utf8.dropFirst(scheme.utf8.count)
        let end = rest.firstIndex { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") } ?? rest.endIndex
        var authority = String(Substring(rest[..<end]))
        if authority.utf8.contains(where: { $0 >= UInt8(ascii: "A") && $0 <= UInt8(ascii: "Z") }) { authority = authority.lowercased() }
        var path = String(Substring(rest[end...]))
        if let fragment = path.firstIndex(of: "#") { path = String(path[..<fragment]) }
        if path.isEmpty || path.first == "?" { path = "/" + path }
        guard !authority.isEmpty, !authority.utf8.contains(UInt8(ascii: "@")),
              path.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f }) else { return nil }

        var host = Substring(authority)
        var port = 443
        if host.first == "[" {
            guard let close = host.firstIndex(of: "]") else { return nil }
            let after = host[host.index(after: close)...]
            host = host[host.index(after: host.startIndex)..<close]
            if !after.isEmpty {
                guard after.first == ":", let value = Int(after.dropFirst()), (1...65535).contains(value) else { return nil }
                port = value
            }
        } else if let colon = host.lastIndex(of: ":") {
            guard let value = Int(host[host.index(after: colon)...]), (1...65535).contains(value) else { return nil }
            port = value
            host = host[..<colon]
        }
        guard !host.isEmpty, host.utf8.allSatisfy({ $0 > 0x20 && $0 < 0x7f && $0 != 0x2f }) else { return nil }
        let name = String(host)
        return H2Target(host: name, port: port, authority: authority, path: path, address: IPAddress(name))
    }
}
