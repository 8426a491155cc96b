/// The origin (`scheme://host[:port]`) of a Web Push endpoint URL: the VAPID `aud`, the unit a
/// 429 backs off, and the host the private-address guard checks.
///
/// A hand parser rather than Foundation's `URL`, whose Linux and Darwin behaviours differ on
/// edge cases; the endpoint is untrusted input from a subscriber.
package struct EndpointOrigin: Sendable, Equatable, Hashable, CustomStringConvertible {
    /// `https` or `http`.
    package var scheme: String
    /// Lowercased; an IPv6 literal without its brackets (what a resolver or address check wants).
    package var host: String
    /// Nil when it is the scheme's default (443, 80).
    package var port: Int?

    /// Parses the endpoint. Rejects other schemes, a missing or malformed host, userinfo
    /// (`user@host`: a way to disguise where a URL points), percent-encoding in the host, and a
    /// port outside 1–65535. Works on the UTF-8 bytes (every accepted character is ASCII): it
    /// runs for every Web Push delivery, where Foundation's `range(of:)` and `Character`
    /// properties cost as much as a tenth of the delivery.
    package init(endpoint: String) throws(GatewayError) {
        var endpoint = endpoint
        let parsed = endpoint.withUTF8 { Self.parse($0) }
        guard let parsed else { throw .invalidToken }
        (scheme, host, port) = parsed
    }

    private static func parse(_ bytes: UnsafeBufferPointer<UInt8>) -> (String, String, Int?)? {
        let colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/")
        guard bytes.count >= 3, let schemeEnd = (0...(bytes.count - 3)).first(where: {
            bytes[$0] == colon && bytes[$0 + 1] == slash && bytes[$0 + 2] == slash
        }) else { return nil }
        let scheme = lowercasedASCII(bytes[..<schemeEnd])
        guard scheme == "https" || scheme == "http" else { return nil }
        let rest = bytes[(schemeEnd + 3)...]
        let authorityEnd = rest.firstIndex { $0 == slash || $0 == UInt8(ascii: "?") || $0 == UInt8(ascii: "#") }
        let authority = rest[..<(authorityEnd ?? rest.endIndex)]
        guard !authority.isEmpty, !authority.contains(UInt8(ascii: "@")) else { return nil }

        let hostPart: Slice<UnsafeBufferPointer<UInt8>>
        let portPart: Slice<UnsafeBufferPointer<UInt8>>?
        if authority.first == UInt8(ascii: "[") {
            guard let close = authority.firstIndex(of: UInt8(ascii: "]")) else { return nil }
            hostPart = authority[(authority.startIndex + 1)..<close]
            let after = authority[(close + 1)...]
            if after.isEmpty {
                portPart = nil
            } else if after.first == colon {
                portPart = after.dropFirst()
            } else {
                return nil
            }
            guard hostPart.contains(colon), hostPart.allSatisfy({ isHexDigit($0) || $0 == colon || $0 == UInt8(ascii: ".") })
            else { return nil }
        } else {
            let portColon = authority.firstIndex(of: colon)
            hostPart = authority[..<(portColon ?? authority.endIndex)]
            portPart = portColon.map { authority[($0 + 1)...] }
            guard hostPart.allSatisfy({ isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") || $0 == UInt8(ascii: "_") }),
                  hostPart.first != UInt8(ascii: "."),
                  !zip(hostPart, hostPart.dropFirst()).contains(where: { $0 == UInt8(ascii: ".") && $1 == UInt8(ascii: ".") })
            else { return nil }
        }
        guard !hostPart.isEmpty else { return nil }
        let host = lowercasedASCII(hostPart)

        var port: Int?
        if let portPart {
            guard (1...5).contains(portPart.count), portPart.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") })
            else { return nil }
            let number = portPart.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            guard (1...65_535).contains(number) else { return nil }
            port = number == (scheme == "https" ? 443 : 80) ? nil : number
        }
        return (scheme, host, port)
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "f")).contains(byte | 0x20) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
    }

    /// ASCII letters lowered; other bytes kept (a non-ASCII byte never passes the checks above).
    private static func lowercasedASCII(_ bytes: Slice<UnsafeBufferPointer<UInt8>>) -> String {
        String(decoding: bytes.lazy.map { (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains($0) ? $0 | 0x20 : $0 }, as: UTF8.self)
    }

    /// The serialized origin, e.g. `https://push.example.net`, `https://[::1]:8443`.
    package var description: String {
        let shownHost = host.contains(":") ? "[\(host)]" : host
        return port.map { "\(scheme)://\(shownHost):\($0)" } ?? "\(scheme)://\(shownHost)"
    }
}
