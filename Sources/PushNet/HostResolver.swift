#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The answer of a host lookup.
package enum HostResolution: Sendable, Equatable {
    case addresses([IPAddress])
    /// The name does not exist (or has no address).
    case notFound
    /// The lookup failed for now (no DNS server answer); says nothing about the name.
    case temporaryFailure
}

/// Looks host names up; a seam so tests do not depend on DNS.
package protocol HostResolving: Sendable {
    func resolve(_ host: String) -> HostResolution
}

/// `getaddrinfo`, blocking the calling thread (the request path is synchronous).
package struct SystemHostResolver: HostResolving {
    package init() {}

    // glibc's EAI_NODATA and EAI_ADDRFAMILY (GNU extensions the Swift overlay does not import).
    private static let noData: Int32 = -5
    private static let noAddressInFamily: Int32 = -9

    package func resolve(_ host: String) -> HostResolution {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
        hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
        hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let rc = getaddrinfo(host, nil, &hints, &list)
        guard rc == 0 else {
            switch rc {
            case EAI_NONAME, Self.noData, Self.noAddressInFamily: return .notFound
            default: return .temporaryFailure
            }
        }
        defer { freeaddrinfo(list) }
        var addresses: [IPAddress] = []
        var cursor = list
        while let info = cursor?.pointee {
            if info.ai_family == AF_INET, let raw = info.ai_addr {
                let address = raw.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { $0.pointee.sin_addr }
                addresses.append(.v4(withUnsafeBytes(of: address) { Array($0) }))
            } else if info.ai_family == AF_INET6, let raw = info.ai_addr {
                let address = raw.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { $0.pointee.sin6_addr }
                addresses.append(.v6(withUnsafeBytes(of: address) { Array($0) }))
            }
            cursor = info.ai_next
        }
        return addresses.isEmpty ? .notFound : .addresses(Array(Set(addresses)))
    }
}
