/// An identity named by an Ed25519 public key, with a text form of it: an account id
/// (`AccountID`, strkey) or a space key (`SpaceKey`, base58). Both verify signatures alike and
/// print as their text.
public protocol Ed25519Identity: CustomStringConvertible, Sendable {
    /// The raw 32-byte Ed25519 public key.
    var publicKey: [UInt8] { get }
    /// The text form.
    var string: String { get }
}

extension Ed25519Identity {
    public var description: String { string }

    /// Verifies an Ed25519 signature by this key over `message` (for a space key: a topic, or a
    /// caller's account id).
    @inlinable
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        Ed25519.verify(signature: signature, message: message, publicKey: publicKey)
    }
}

extension Ed25519 {
    /// `bytes` when they are as long as a public key (32), else `CryptoError.invalidKeyLength`.
    public static func checkedPublicKey(_ bytes: [UInt8]) throws -> [UInt8] {
        guard bytes.count == 32 else { throw CryptoError.invalidKeyLength(expected: 32, got: bytes.count) }
        return bytes
    }
}
