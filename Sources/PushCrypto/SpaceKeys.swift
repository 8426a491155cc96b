/// The two keys a space member derives from ACL material, byte-compatible with any-sync:
/// the space push key (from the ACL's first metadata key, never rotates) and the payload
/// key (from the current read key, rotates with it).
public struct SpaceKeys: Sendable {
    /// SLIP-10 ed25519 path of the space push key.
    public static let pushKeyPath = "m/99999'/1'"
    /// SLIP-21 path of the payload key.
    public static let payloadKeyPath = "m/SLIP-0021/anytype/space/key"

    public let pushKey: SpacePushKey
    public let payloadKey: PayloadKey

    /// Derives both keys. See `pushKey(firstMetadataKey:)` and `payloadKey(readKey:)`.
    public static func derive(firstMetadataKey: [UInt8], readKey: [UInt8]) throws -> SpaceKeys {
        SpaceKeys(pushKey: try pushKey(firstMetadataKey: firstMetadataKey), payloadKey: try payloadKey(readKey: readKey))
    }

    /// The space push key: SLIP-10 ed25519 at `m/99999'/1'` over the 64-byte Go form
    /// (`seed32 ‖ pub32`) of the first metadata key; the derived 32 bytes are its Ed25519 seed.
    ///
    /// - Parameter firstMetadataKey: the 32-byte Ed25519 seed or the 64-byte Go form.
    /// - Throws: `CryptoError.invalidKeyLength` for other lengths; `CryptoError.invalidEncoding`
    ///   when the public half of the 64-byte form does not belong to its seed.
    public static func pushKey(firstMetadataKey: [UInt8]) throws -> SpacePushKey {
        var goForm = try expandedMetadataKey(firstMetadataKey)
        defer { ConstantTime.wipe(&goForm) }
        var seed = try SLIP10.ed25519Key(seed: goForm, path: pushKeyPath)
        defer { ConstantTime.wipe(&seed) }
        return try SpacePushKey(seed: seed)
    }

    /// The payload key: SLIP-21 at `m/SLIP-0021/anytype/space/key` over the 32-byte read key.
    public static func payloadKey(readKey: [UInt8]) throws -> PayloadKey {
        guard readKey.count == 32 else { throw CryptoError.invalidKeyLength(expected: 32, got: readKey.count) }
        var raw = try SLIP21.key(seed: readKey, path: payloadKeyPath)
        defer { ConstantTime.wipe(&raw) }
        return try PayloadKey(rawKey: raw)
    }

    /// `seed32 ‖ pub32`, from either accepted form.
    static func expandedMetadataKey(_ key: [UInt8]) throws -> [UInt8] {
        switch key.count {
        case 32:
            return try Ed25519.KeyPair(seed: key).expandedSecretKey
        case 64:
            let pair = try Ed25519.KeyPair(seed: Array(key[0..<32]))
            guard ConstantTime.equals(pair.publicKey, Array(key[32..<64])) else {
                throw CryptoError.invalidEncoding("metadata key: public half does not match its seed")
            }
            return key
        default:
            throw CryptoError.invalidKeyLength(expected: 64, got: key.count)
        }
    }
}
