import Foundation

/// A resolved socket address to bind (IPv4 or IPv6), from a `ListenAddress`.
struct SocketAddress {
    private var storage = sockaddr_storage()
    let isIPv6: Bool

    /// Resolves the host (a literal or a name; the first answer wins) and sets the port.
    static func resolve(_ address: ListenAddress) throws(HTTPServer.StartError) -> SocketAddress {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        hints.ai_flags = AI_PASSIVE | AI_NUMERICSERV
        var result: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(address.host, String(address.port), &hints, &result)
        guard rc == 0, let first = result, let addr = first.pointee.ai_addr else {
            let reason = rc == 0 ? "no address" : String(cString: gai_strerror(rc))
            throw HTTPServer.StartError(description: "cannot resolve listen address \(address): \(reason)")
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

    func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>) -> R) -> R {
        withUnsafeBytes(of: storage) { raw in body(raw.baseAddress!.assumingMemoryBound(to: sockaddr.self)) }
    }
}
