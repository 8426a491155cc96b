/// SLIP-10 hierarchical derivation for ed25519. Only hardened children exist on this
/// curve, so a path with a non-hardened index is an error rather than a silent change.
///
/// - SeeAlso: SLIP-0010, https://github.com/satoshilabs/slips/blob/master/slip-0010.md
public enum SLIP10 {
    /// Added to an index to make it hardened (written `i'`).
    public static let hardenedOffset: UInt32 = 0x8000_0000
    /// The HMAC key of the master node for ed25519.
    static let curveKey: [UInt8] = Array("ed25519 seed".utf8)

    /// The 32-byte private key (an Ed25519 seed) at `path`, e.g. `m/99999'/1'`.
    ///
    /// - Parameter seed: 16–64 bytes of seed material.
    /// - Throws: `CryptoError.invalidDerivationPath` for a malformed path or a non-hardened
    ///   index; `CryptoError.invalidKeyLength` for a seed outside 16–64 bytes.
    public static func ed25519Key(seed: [UInt8], path: String) throws -> [UInt8] {
        try ed25519Key(seed: seed, indices: parse(path: path))
    }

    /// The 32-byte private key after the given indices; each must include `hardenedOffset`.
    public static func ed25519Key(seed: [UInt8], indices: [UInt32]) throws -> [UInt8] {
        var node = try derive(seed: seed, indices: indices)
        defer { node.wipe() }
        return node.key
    }

    /// Parses `m` followed by `/<decimal>'` components (`h` or `H` also mark hardened).
    /// Returns the indices with `hardenedOffset` added.
    public static func parse(path: String) throws -> [UInt32] {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.first == "m" else { throw CryptoError.invalidDerivationPath("SLIP-10 path must start with m") }
        parts.removeFirst()
        return try parts.map { part in
            guard !part.isEmpty else { throw CryptoError.invalidDerivationPath("SLIP-10 path has an empty component") }
            guard let marker = part.last, "'hH".contains(marker) else {
                throw CryptoError.invalidDerivationPath("SLIP-10 ed25519 allows hardened indices only, got '\(part)'")
            }
            let digits = part.dropLast()
            guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
                  let value = UInt32(digits), value < hardenedOffset
            else { throw CryptoError.invalidDerivationPath("SLIP-10 index '\(part)' is not a number below 2^31") }
            return value + hardenedOffset
        }
    }

    /// A node: the private key (bytes 0–31 of the HMAC) and the chain code (bytes 32–63).
    struct Node {
        var key: [UInt8]
        var chainCode: [UInt8]

        mutating func wipe() {
            ConstantTime.wipe(&key)
            ConstantTime.wipe(&chainCode)
        }
    }

    static func derive(seed: [UInt8], indices: [UInt32]) throws -> Node {
        guard (16...64).contains(seed.count) else { throw CryptoError.invalidKeyLength(expected: 64, got: seed.count) }
        if let soft = indices.first(where: { $0 < hardenedOffset }) {
            throw CryptoError.invalidDerivationPath("SLIP-10 ed25519 allows hardened indices only, got \(soft)")
        }
        var node = split(HMACSHA512.authenticate(key: curveKey, data: seed))
        for index in indices {
            // data = 0x00 ‖ key ‖ BE32(index)
            var data: [UInt8] = [0] + node.key
            data += [UInt8(index >> 24), UInt8(truncatingIfNeeded: index >> 16),
                     UInt8(truncatingIfNeeded: index >> 8), UInt8(truncatingIfNeeded: index)]
            let child = split(HMACSHA512.authenticate(key: node.chainCode, data: data))
            ConstantTime.wipe(&data)
            node.wipe()
            node = child
        }
        return node
    }

    private static func split(_ digest: [UInt8]) -> Node {
        var digest = digest
        defer { ConstantTime.wipe(&digest) }
        return Node(key: Array(digest[0..<32]), chainCode: Array(digest[32..<64]))
    }
}
