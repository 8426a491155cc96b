/// A CIDR block (`10.0.0.0/8`, `2001:db8::/32`, or one address with no `/`): what an allow list
/// of callers is written in.
package struct IPNetwork: Hashable, Sendable, CustomStringConvertible {
    package let address: IPAddress
    package let prefixLength: Int

    /// Parses `address[/prefix]`; nil when the address is not a numeric literal or the prefix is out
    /// of range for its family. Bits past the prefix are ignored.
    package init?(_ text: String) {
        let parts = text.split(separator: "/", maxSplits: 1, omittingEmptySubsequences: false)
        guard let address = IPAddress(String(parts[0])) else { return nil }
        let bits = address.bytes.count * 8
        if parts.count == 2 {
            guard let length = Int(parts[1]), (0...bits).contains(length) else { return nil }
            prefixLength = length
        } else {
            prefixLength = bits
        }
        self.address = address
    }

    /// Whether `candidate` is inside the block. An IPv4 address reaching an IPv6 listener arrives
    /// mapped (`::ffff:a.b.c.d`) and is compared as the IPv4 address it is.
    package func contains(_ candidate: IPAddress) -> Bool {
        let wanted = address.bytes
        var have = candidate.bytes
        if wanted.count == 4, have.count == 16, have.prefix(12) == [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff] {
            have = Array(have.suffix(4))
        }
        guard have.count == wanted.count else { return false }
        var left = prefixLength
        for index in wanted.indices where left > 0 {
            let take = min(8, left)
            let mask = UInt8(truncatingIfNeeded: 0xff << (8 - take))
            guard wanted[index] & mask == have[index] & mask else { return false }
            left -= take
        }
        return true
    }

    package var description: String { "\(address)/\(prefixLength)" }
}

extension IPAddress {
    /// The address's bytes in network order (4 or 16).
    package var bytes: [UInt8] {
        switch self {
        case .v4(let bytes), .v6(let bytes): return bytes
        }
    }
}
