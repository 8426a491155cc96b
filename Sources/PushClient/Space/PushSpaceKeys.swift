import PushCrypto

/// The two keys of a space, whatever made them: the push key (Ed25519) that signs topics and
/// the space registration, and the payload key (AES-256-GCM) that seals payloads.
///
/// Every sender needs exactly these two, so every form produces this one value:
/// - any/Anytype spaces derive them from ACL material (`derive(firstMetadataKey:readKey:)`,
///   Spec/crypto.md §7–§8);
/// - any other chat server takes raw keys (`init(pushKeySeed:payloadKey:)`), usually a random pair
///   kept in a space file (`SpaceKeyFile`, `pushnode client space new`).
///
/// Both keys are secrets: whoever holds the push key can subscribe to and notify the space's
/// topics, whoever holds the payload key reads its payloads.
public struct PushSpaceKeys: Sendable {
    /// Signs topics and space registrations (`spaceKey` is its public half in base58).
    public let pushKey: SpacePushKey
    /// Seals payloads (`keyId` = lowercase hex SHA-256 of the raw key).
    public let payloadKey: PayloadKey

    public init(pushKey: SpacePushKey, payloadKey: PayloadKey) {
        self.pushKey = pushKey
        self.payloadKey = payloadKey
    }

    /// A space from raw keys: the 32-byte Ed25519 seed of the push key and the 32-byte payload key.
    /// - Throws: `PushClientError` `client.invalid_argument` for any other length.
    public init(pushKeySeed: [UInt8], payloadKey: [UInt8]) throws(PushClientError) {
        guard pushKeySeed.count == 32, let pushKey = try? SpacePushKey(seed: pushKeySeed) else {
            throw PushClientError(code: .invalidArgument, message: "the push key seed is 32 bytes, got \(pushKeySeed.count)")
        }
        guard let sealer = try? PayloadKey(rawKey: payloadKey) else {
            throw PushClientError(code: .invalidArgument, message: "the payload key is 32 bytes, got \(payloadKey.count)")
        }
        self.init(pushKey: pushKey, payloadKey: sealer)
    }

    /// A fresh random space: a random push key seed and a random payload key, no ACL material.
    public static func generate() -> PushSpaceKeys {
        try! PushSpaceKeys(pushKeySeed: SecureRandom.bytes(32), payloadKey: SecureRandom.bytes(PayloadKey.size))
    }

    /// any's derivation from the ACL: the push key from the first metadata key (32-byte seed or
    /// 64-byte Go form), the payload key from the current read key (32 bytes).
    /// - Throws: `PushClientError` `client.invalid_argument` naming the key that does not fit.
    public static func derive(firstMetadataKey: [UInt8], readKey: [UInt8]) throws(PushClientError) -> PushSpaceKeys {
        guard let pushKey = try? SpaceKeys.pushKey(firstMetadataKey: firstMetadataKey) else {
            throw PushClientError(code: .invalidArgument,
                                  message: "the first metadata key is a 32-byte seed or 64 bytes (seed ‖ public key)")
        }
        guard let payloadKey = try? SpaceKeys.payloadKey(readKey: readKey) else {
            throw PushClientError(code: .invalidArgument, message: "the read key is 32 bytes, got \(readKey.count)")
        }
        return PushSpaceKeys(pushKey: pushKey, payloadKey: payloadKey)
    }

    /// base58 of the push public key: the node's name for the space.
    public var spaceKey: String { pushKey.spaceKey }

    /// Which key opens the payloads sealed now (PROTOCOL §1 `keyId`).
    public var keyId: String { payloadKey.keyId }
}
