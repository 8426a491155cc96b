#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 (4 bytes) or IPv6 (16 bytes) address in network byte order.
package enum IPAddress: Hashable, Sendable, CustomStringConvertible {
    case v4([UInt8])
    case v6([UInt8])

    /// Parses a numeric literal (`192.0.2.1`, `2001:db8::1`, `[::1]`); nil for anything else.
    package init?(_ text: String) {
        var literal = Substring(text)
        if literal.hasPrefix("[") && literal.hasSuffix("]") { literal = literal.dropFirst().dropLast() }
        var v4 = in_addr()
        if inet_pton(AF_INET, String(literal), &v4) == 1 {
            self = .v4(withUnsafeBytes(of: &v4) { Array($0) })
            return
        }
        var v6 = in6_addr()
        if inet_pton(AF_INET6, String(literal), &v6) == 1 {
            self = .v6(withUnsafeBytes(of: &v6) { Array($0) })
            return
        }
        return nil
    }

    /// An address from its raw bytes in network order (4 or 16); nil for any other length.
    package init?(bytes: [UInt8]) {
        switch bytes.count {
        case 4: self = .v4(bytes)
        case 16: self = .v6(bytes)
        default: return nil
        }
    }

    package var description: String {
        switch self {
        case .v4(let bytes): return bytes.map(String.init).joined(separator: ".")
        case .v6(let bytes):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { $0.copyBytes(from: bytes) }
            var buffer = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN))
            guard inet_ntop(AF_INET6, &address, &buffer, socklen_t(buffer.count)) != nil else { return "?" }
            return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }
}
