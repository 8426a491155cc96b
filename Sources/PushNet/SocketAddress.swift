import Foundation

/// A socket address (IPv4 or IPv6): resolved from a `ListenAddress` to bind, or built from an
/// address literal to connect to.
package struct SocketAddress {
    private var storage = sockaddr_storage()
    package let isIPv6: Bool

    /// The listen address did not resolve.
    package struct ResolveError: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// Resolves the host (a literal or a name; the first answer wins) and sets the port.
    package static func resolve(_ address: ListenAddress) throws(ResolveError) -> SocketAddress {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(address.host, String(address.port), &hints, &result)
        guard rc == 0, let first = result, let addr = first.pointee.ai_addr else {
            let reason = rc == 0 ? "no address" : String(cString: gai_strerror(rc))
            throw ResolveError(description: "cannot resolve listen address \(address): \(reason)")
        }
        defer { freeaddrinfo(result) }
        var resolved = SocketAddress(isIPv6: first.pointee.ai_family == AF_INET6)
        withUnsafeMutableBytes(of: &resolved.storage) { raw in
            let length = min(Int(first.pointee.ai_addrlen), raw.count)
            raw.copyMemory(from: UnsafeRawBufferPointer(start: addr, count: length))
        }
        return resolved
    }

    private init(isIPv6: Bool) { self.isIPv6 = isIPv6 }

    /// `address` at `port`.
    package init(_ address: IPAddress, port: Int) {
        let networkPort = in_port_t(UInt16(port).bigEndian)
        switch address {
        case .v4(let bytes):
            var inet = sockaddr_in()
            inet.sin_family = sa_family_t(AF_INET)
            inet.sin_port = networkPort
            self.init(inet, address: \.sin_addr, bytes, isIPv6: false)
        case .v6(let bytes):
            var inet6 = sockaddr_in6()
            inet6.sin6_family = sa_family_t(AF_INET6)
            inet6.sin6_port = networkPort
            self.init(inet6, address: \.sin6_addr, bytes, isIPv6: true)
        }
    }

    /// `inet` (a `sockaddr_in` or `sockaddr_in6`, its family and port set) with its `address`
    /// field set to `bytes`.
    private init<Inet, Address>(_ inet: Inet, address: WritableKeyPath<Inet, Address>, _ bytes: [UInt8], isIPv6: Bool) {
        var inet = inet
        withUnsafeMutableBytes(of: &inet[keyPath: address]) { $0.copyBytes(from: bytes) }
        self.init(isIPv6: isIPv6)
        withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: inet) { raw.copyMemory(from: $0) } }
    }

    /// The address family, for `socket(2)`.
    package var family: Int32 { isIPv6 ? AF_INET6 : AF_INET }

    /// The size of the address proper, for `bind(2)` and `connect(2)`.
    package var length: socklen_t { socklen_t(isIPv6 ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size) }

    package func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }
}
