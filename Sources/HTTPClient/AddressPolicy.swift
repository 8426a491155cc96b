/// Which IP addresses a client that refuses private addresses may connect to.
///
/// Web Push endpoints come from subscribers, so a hostile one could point the node at
/// its own network. The check runs on the address libcurl is about to connect to (after
/// DNS), so a name that resolved to a public address at registration and to a private
/// one now is still refused.
///
/// - SeeAlso: RFC 6890 (special-purpose address registries), RFC 4291, RFC 6052.
enum AddressPolicy {
    /// Whether `address` (4 or 16 bytes, network order) is a public unicast address.
    static func isPublic(_ address: [UInt8]) -> Bool {
        switch address.count {
        case 4: return isPublicIPv4(address)
        case 16: return isPublicIPv6(address)
        default: return false
        }
    }

    private static func isPublicIPv4(_ a: [UInt8]) -> Bool {
        switch (a[0], a[1], a[2]) {
        case (0, _, _), (10, _, _), (127, _, _): return false  // this network, private, loopback
        case (100, 64...127, _): return false                   // shared address space (CGNAT)
        case (169, 254, _): return false                        // link-local
        case (172, 16...31, _): return false                    // private
        case (192, 0, 0), (192, 0, 2): return false             // IETF assignments, TEST-NET-1
        case (192, 88, 99): return false                        // 6to4 relay anycast
        case (192, 168, _): return false                        // private
        case (198, 18...19, _): return false                    // benchmarking
        case (198, 51, 100), (203, 0, 113): return false        // TEST-NET-2, TEST-NET-3
        case (224...255, _, _): return false                    // multicast, reserved, broadcast
        default: return true
        }
    }

    private static func isPublicIPv6(_ a: [UInt8]) -> Bool {
        let prefix96 = a[0..<12]
        if prefix96.allSatisfy({ $0 == 0 }) { return false }    // ::, ::1, IPv4-compatible
        if a[0..<10].allSatisfy({ $0 == 0 }) && a[10] == 0xff && a[11] == 0xff {
            return isPublicIPv4(Array(a[12..<16]))              // IPv4-mapped
        }
        if Array(a[0..<12]) == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] {
            return isPublicIPv4(Array(a[12..<16]))              // NAT64 well-known prefix
        }
        if a[0] == 0x00, a[1] == 0x64, a[2] == 0xff, a[3] == 0x9b, a[4] == 0x00, a[5] == 0x01 {
            return false                                        // 64:ff9b:1::/48 local-use NAT64
        }
        if a[0] == 0x01, a[1] == 0x00, a[2..<8].allSatisfy({ $0 == 0 }) { return false }  // 100::/64 discard
        if a[0] == 0x20, a[1] == 0x01, a[2] == 0x0d, a[3] == 0xb8 { return false }       // 2001:db8::/32
        if a[0] & 0xfe == 0xfc { return false }                 // fc00::/7 unique local
        if a[0] == 0xfe, a[1] & 0xc0 == 0x80 { return false }   // fe80::/10 link-local
        if a[0] == 0xfe, a[1] & 0xc0 == 0xc0 { return false }   // fec0::/10 site-local
        if a[0] == 0xff { return false }                        // multicast
        return true
    }
}
