/// The Ed25519 key pair of a space that every member derives from the ACL
/// (`SpaceKeys.pushKey(firstMetadataKey:)`). It proves membership to the node: it signs
/// topics and space registrations. It never rotates.
///
/// On the wire the public key appears as `spaceKey`, the base58 of its 32 raw bytes.
public struct SpacePushKey: Sendable {
    public let keyPair: Ed25519.KeyPair
    /// base58 (bitcoin alphabet) of the 32-byte public key.
    public let spaceKey: String

    /// The raw 32-byte public key.
    public var publicKey: [UInt8] { keyPair.publicKey }

    /// The key pair whose Ed25519 seed is `seed` (32 bytes).
    public init(seed: [UInt8]) throws {
        keyPair = try Ed25519.KeyPair(seed: seed)
        spaceKey = Base58.encode(keyPair.publicKey)
    }

    /// Signs the UTF-8 bytes of `topic` alone (no space key, no separator).
    public func sign(topic: String) -> [UInt8] {
        keyPair.sign(Array(topic.utf8))
    }

    /// Signs the UTF-8 bytes of the account id's text form: registers that account in the space.
    public func signRegistration(accountId: AccountID) -> [UInt8] {
        keyPair.sign(Array(accountId.string.utf8))
    }

    /// Verifies a topic signature by the space whose base58 key is `spaceKey`.
    /// False for a malformed space key as well as for a bad signature.
    public static func verify(spaceKey: String, topic: String, signature: [UInt8]) -> Bool {
        guard let publicKey = try? decode(spaceKey: spaceKey) else { return false }
        return Ed25519.verify(signature: signature, message: Array(topic.utf8), publicKey: publicKey)
    }

    /// Verifies a space registration signature over the account id's text form.
    public static func verifyRegistration(spaceKey: String, accountId: AccountID, signature: [UInt8]) -> Bool {
        guard let publicKey = try? decode(spaceKey: spaceKey) else { return false }
        return Ed25519.verify(signature: signature, message: Array(accountId.string.utf8), publicKey: publicKey)
    }

    /// The raw public key of a base58 `spaceKey`.
    /// - Throws: `CryptoError.invalidEncoding` for bad base58 or a length other than 32 bytes.
    public static func decode(spaceKey: String) throws -> [UInt8] {
        let raw = try Base58.decode(spaceKey)
        guard raw.count == 32 else { throw CryptoError.invalidEncoding("space key: \(raw.count) bytes, expected 32") }
        return raw
    }
}
