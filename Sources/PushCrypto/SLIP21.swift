/// SLIP-21 hierarchical derivation of symmetric keys.
///
/// - SeeAlso: SLIP-0021, https://github.com/satoshilabs/slips/blob/master/slip-0021.md
public enum SLIP21 {
    /// The HMAC key of the master node.
    static let masterKey: [UInt8] = Array("Symmetric key seed".utf8)

    /// The 32-byte key at `path`: `m` followed by `/label` components, each label taken as
    /// its UTF-8 bytes, e.g. `m/SLIP-0021/anytype/space/key`.
    ///
    /// - Throws: `CryptoError.invalidDerivationPath` when the path does not start with `m`
    ///   or has an empty label.
    public static func key(seed: [UInt8], path: String) throws -> [UInt8] {
        key(seed: seed, labels: try parse(path: path))
    }

    /// The 32-byte key after the given labels (raw bytes; a label may contain `/` here).
    public static func key(seed: [UInt8], labels: [[UInt8]]) -> [UInt8] {
        // A node is 64 bytes: chain code = bytes 0–31, key = bytes 32–63.
        var node = HMACSHA512.authenticate(key: masterKey, data: seed)
        for label in labels {
            var chainCode = Array(node[0..<32])
            let child = HMACSHA512.authenticate(key: chainCode, data: [0] + label)
            ConstantTime.wipe(&chainCode)
            ConstantTime.wipe(&node)
            node = child
        }
        defer { ConstantTime.wipe(&node) }
        return Array(node[32..<64])
    }

    /// Splits a path on `/` after the leading `m` into UTF-8 labels.
    public static func parse(path: String) throws -> [[UInt8]] {
        var parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.first == "m" else { throw CryptoError.invalidDerivationPath("SLIP-21 path must start with m") }
        parts.removeFirst()
        guard parts.allSatisfy({ !$0.isEmpty }) else { throw CryptoError.invalidDerivationPath("SLIP-21 path has an empty label") }
        return parts.map { Array($0.utf8) }
    }
}
