/// The origin (`scheme://host[:port]`) of a Web Push endpoint URL: the VAPID `aud`, the unit a
/// 429 backs off, and the host the private-address guard checks.
///
/// A hand parser rather than Foundation's `URL`, whose Linux and Darwin behaviours differ on
/// edge cases; the endpoint is untrusted input from a subscriber.
public struct EndpointOrigin: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// `https` or `http`.
    public var scheme: String
    /// Lowercased; an IPv6 literal without its brackets (what a resolver or address check wants).
    public var host: String
    /// Nil when it is the scheme's default (443, 80).
    public var port: Int?

    /// Parses the endpoint. Rejects other schemes, a missing or malformed host, userinfo
    /// (`user@host`: a way to disguise where a URL points), percent-encoding in the host, and a
    /// port outside 1–65535.
    public init(endpoint: String) throws(GatewayError) {
        guard let schemeEnd = endpoint.range(of: "://") else { throw .invalidToken }
        scheme = endpoint[..<schemeEnd.lowerBound].lowercased()
        guard scheme == "https" || scheme == "http" else { throw .invalidToken }
        let rest = endpoint[schemeEnd.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard !authority.isEmpty, !authority.contains("@") else { throw .invalidToken }

        let hostPart: Substring
        let portPart: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { throw .invalidToken }
            hostPart = authority[authority.index(after: authority.startIndex)..<close]
            let after = authority[authority.index(after: close)...]
            if after.isEmpty {
                portPart = nil
            } else if after.hasPrefix(":") {
                portPart = after.dropFirst()
            } else {
                throw .invalidToken
            }
            guard hostPart.contains(":"), hostPart.allSatisfy({ $0.isHexDigit || $0 == ":" || $0 == "." }) else {
                throw .invalidToken
            }
        } else {
            let pieces = authority.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            hostPart = pieces[0]
            portPart = pieces.count == 2 ? pieces[1] : nil
            guard hostPart.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-" || $0 == "." || $0 == "_") }),
                  !hostPart.hasPrefix("."), !hostPart.contains("..") else { throw .invalidToken }
        }
        guard !hostPart.isEmpty else { throw .invalidToken }
        host = hostPart.lowercased()

        if let portPart {
            guard (1...5).contains(portPart.count), portPart.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let number = Int(portPart), (1...65_535).contains(number) else { throw .invalidToken }
            port = number == (scheme == "https" ? 443 : 80) ? nil : number
        } else {
            port = nil
        }
    }

    /// The serialized origin, e.g. `https://push.example.net`, `https://[::1]:8443`.
    public var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(scheme)://\(shownHost):\($0)" } ?? "\(scheme)://\(shownHost)"
    }
}
