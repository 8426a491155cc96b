/// A `host:port` to listen on: `127.0.0.1:8765`, `[::1]:8765`, `0.0.0.0:0` (any free port).
package struct ListenAddress: Sendable, Equatable, CustomStringConvertible {
    /// An IPv4 or IPv6 literal or a host name (resolved when binding), without brackets.
    package var host: String
    package var port: UInt16

    package init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Parses `host:port` or `[ipv6]:port`.
    package init(parsing text: String) throws(ConfigValueError) {
        let hostPart: Substring
        let portPart: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ConfigValueError("expected [ipv6]:port")
            }
            hostPart = text[text.index(after: text.startIndex)..<close]
            portPart = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else { throw ConfigValueError("expected host:port") }
            hostPart = text[..<colon]
            portPart = text[text.index(after: colon)...]
            guard !hostPart.contains(":") else { throw ConfigValueError("write IPv6 addresses as [address]:port") }
        }
        guard !hostPart.isEmpty, !hostPart.contains(where: { $0 == " " || $0 == "/" }) else {
            throw ConfigValueError("expected host:port")
        }
        guard let port = UInt16(portPart) else { throw ConfigValueError("port must be 0-65535") }
        self.host = String(hostPart)
        self.port = port
    }

    /// Whether the host is an IPv6 literal.
    package var isIPv6: Bool { host.contains(":") }

    package var description: String { isIPv6 ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Why one configuration value was refused; the loader adds the key's name.
package struct ConfigValueError: Error, Equatable, Sendable {
    package let message: String
    package init(_ message: String) { self.message = message }
}
