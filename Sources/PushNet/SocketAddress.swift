import Foundation

/// A resolved socket address to bind (IPv4 or IPv6), from a `ListenAddress`.
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

    package func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }
}
