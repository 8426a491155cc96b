#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Which client a connection is charged to by per-address limits (PROTOCOL §7
/// `limits.newAccountsPerAddress`): the unit one party is taken to hold — an IPv4 address, or
/// an IPv6 /64 (a single host is routinely given a whole /64). Behind a reverse proxy on the same
/// host the peer is loopback: the last `X-Forwarded-For` entry, the address the proxy itself saw,
/// names the client then.
package enum ClientAddress {
    /// The peer of connected socket `fd`; an IPv4-mapped IPv6 peer as its IPv4 address.
    package static func peer(of fd: Int32) -> IPAddress? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let found = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getpeername(fd, $0, &length) }
        }
        guard found == 0 else { return nil }
        switch Int32(storage.ss_family) {
        case AF_INET:
            return withUnsafeBytes(of: &storage) { raw in
                IPAddress(bytes: Array(raw.load(as: sockaddr_in.self).sin_addr_bytes))
            }
        case AF_INET6:
            let bytes = withUnsafeBytes(of: &storage) { raw in
                withUnsafeBytes(of: raw.load(as: sockaddr_in6.self).sin6_addr) { Array($0) }
            }
            if bytes.prefix(10).allSatisfy({ $0 == 0 }) && bytes[10] == 0xff && bytes[11] == 0xff {
                return .v4(Array(bytes.suffix(4)))
            }
            return .v6(bytes)
        default:
            return nil
        }
    }

    /// The key of `peer`'s bucket: `X-Forwarded-For`'s last entry when `peer` is loopback and
    /// the header names an address, else `peer` itself; an IPv6 address by its /64.
    package static func key(peer: IPAddress, forwardedFor: String? = nil) -> String {
        var client = peer
        if AddressClass.of(peer) == .loopback, let forwardedFor,
           let last = forwardedFor.split(separator: ",").last,
           let named = IPAddress(String(last.filter { $0 != " " && $0 != "\t" })) {
            client = named
        }
        switch client {
        case .v4: return client.description
        case .v6(let bytes): return IPAddress.v6(Array(bytes.prefix(8)) + Array(repeating: 0, count: 8)).description + "/64"
        }
    }
}

private extension sockaddr_in {
    var sin_addr_bytes: [UInt8] { withUnsafeBytes(of: sin_addr) { Array($0) } }
}
