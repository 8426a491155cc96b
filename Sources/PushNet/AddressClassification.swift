/// Where an IP address leads, for the Web Push private-endpoint guard (PROTOCOL §3): only `global`
/// addresses may be push endpoints unless `webpush.allowPrivateEndpoints` is set.
///
/// - SeeAlso: RFC 6890 and the IANA IPv4/IPv6 special-purpose address registries.
package enum AddressClass: String, Sendable, Equatable {
    case global
    case unspecified      // 0.0.0.0/8, ::
    case loopback         // 127.0.0.0/8, ::1
    case `private`        // 10/8, 172.16/12, 192.168/16, IPv6 ULA fc00::/7
    case sharedAddressSpace  // 100.64.0.0/10 (carrier-grade NAT)
    case linkLocal        // 169.254.0.0/16, fe80::/10
    case multicast        // 224.0.0.0/4, ff00::/8
    case reserved         // documentation, benchmarking, protocol assignments, future use, non-2000::/3 IPv6

    package var isPubliclyRoutable: Bool { self == .global }

    /// Classifies an address. IPv4-mapped (`::ffff:a.b.c.d`), NAT64 (`64:ff9b::/96`) and 6to4
    /// (`2002::/16`) IPv6 addresses are classified by the IPv4 address they carry.
    package static func of(_ address: IPAddress) -> AddressClass {
        switch address {
        case .v4(let b): return ipv4(b)
        case .v6(let b): return ipv6(b)
        }
    }

    static func ipv4(_ b: [UInt8]) -> AddressClass {
        precondition(b.count == 4)
        switch (b[0], b[1], b[2]) {
        case (0, _, _): return .unspecified
        case (10, _, _): return .private
        case (100, 64...127, _): return .sharedAddressSpace
        case (127, _, _): return .loopback
        case (169, 254, _): return .linkLocal
        case (172, 16...31, _): return .private
        case (192, 0, 0): return .reserved        // IETF protocol assignments
        case (192, 0, 2): return .reserved        // TEST-NET-1
        case (192, 88, 99): return .reserved      // deprecated 6to4 relay anycast
        case (192, 168, _): return .private
        case (198, 18...19, _): return .reserved  // benchmarking
        case (198, 51, 100): return .reserved     // TEST-NET-2
        case (203, 0, 113): return .reserved      // TEST-NET-3
        case (224...239, _, _): return .multicast
        case (240...255, _, _): return .reserved  // future use and broadcast
        default: return .global
        }
    }

    static func ipv6(_ b: [UInt8]) -> AddressClass {
        precondition(b.count == 16)
        let prefix96Zero = b[0..<10].allSatisfy { $0 == 0 }
        if prefix96Zero && b[10] == 0xff && b[11] == 0xff { return ipv4(Array(b[12..<16])) }  // ::ffff:a.b.c.d
        if b[0..<12] == [0x00, 0x64, 0xff, 0x9b, 0, 0, 0, 0, 0, 0, 0, 0] { return ipv4(Array(b[12..<16])) }  // NAT64
        if b.allSatisfy({ $0 == 0 }) { return .unspecified }
        if b[0..<15].allSatisfy({ $0 == 0 }) && b[15] == 1 { return .loopback }
        if b[0] == 0xff { return .multicast }
        if b[0] & 0xfe == 0xfc { return .private }                       // fc00::/7 unique local
        if b[0] == 0xfe && b[1] & 0xc0 == 0x80 { return .linkLocal }     // fe80::/10
        // Everything else outside 2000::/3 (::/8 incl. IPv4-compatible, 64:ff9b:1::/48, 100::/64,
        // fec0::/10 site-local, 5f00::/16 SRv6, …) is not global unicast.
        guard b[0] & 0xe0 == 0x20 else { return .reserved }
        if b[0] == 0x20 && b[1] == 0x01 && b[2] < 0x02 { return .reserved }   // 2001::/23 protocol assignments (Teredo, ORCHID, …)
        if b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0d && b[3] == 0xb8 { return .reserved }  // 2001:db8::/32 documentation
        if b[0] == 0x3f && b[1] == 0xff && b[2] & 0xf0 == 0 { return .reserved }  // 3fff::/20 documentation
        if b[0] == 0x20 && b[1] == 0x02 { return ipv4(Array(b[2..<6])) }        // 2002::/16 6to4
        return .global
    }
}
