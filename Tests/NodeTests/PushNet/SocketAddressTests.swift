import Glibc
import Testing
@testable import PushNet

/// A connect-side `SocketAddress` carries the family, the port in network order and the address
/// bytes where `connect(2)` reads them, at the length of the family's own struct.
struct SocketAddressTests {
    @Test func anIPv4AddressIsASockaddrIn() throws {
        let address = SocketAddress(try #require(IPAddress("192.0.2.7")), port: 8443)
        #expect(address.family == AF_INET && address.length == socklen_t(MemoryLayout<sockaddr_in>.size))
        let (family, port, text) = address.withSockaddr { pointer in
            pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) { inet in
                var copy = inet.pointee.sin_addr
                var buffer = [CChar](repeating: 0, count: Int(INET_ADDRSTRLEN))
                inet_ntop(AF_INET, &copy, &buffer, socklen_t(buffer.count))
                return (Int32(inet.pointee.sin_family), UInt16(bigEndian: inet.pointee.sin_port), String(cString: buffer))
            }
        }
        #expect(family == AF_INET && port == 8443 && text == "192.0.2.7")
    }

    @Test func anIPv6AddressIsASockaddrIn6() throws {
        let address = SocketAddress(try #require(IPAddress("[2001:db8::5]")), port: 443)
        #expect(address.family == AF_INET6 && address.length == socklen_t(MemoryLayout<sockaddr_in6>.size))
        let (family, port, text) = address.withSockaddr { pointer in
            pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) { inet6 in
                var copy = inet6.pointee.sin6_addr
                var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
                inet_ntop(AF_INET6, &copy, &buffer, socklen_t(buffer.count))
                return (Int32(inet6.pointee.sin6_family), UInt16(bigEndian: inet6.pointee.sin6_port), String(cString: buffer))
            }
        }
        #expect(family == AF_INET6 && port == 443 && text == "2001:db8::5")
    }
}
