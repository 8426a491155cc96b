import PushCrypto

/// Signs with one space's push key (Ed25519): topics, and the space registration.
///
/// The host may bind it to the shared `SpacePushKey`; `SpacePushKeySigner` is a complete
/// implementation over `Ed25519.KeyPair`.
public protocol TopicSigner: Sendable {
    /// base58 of the raw 32-byte space push public key: the node's name for the space.
    var spaceKey: String { get }
    /// The raw 64-byte Ed25519 signature of `message`.
    func sign(_ message: [UInt8]) -> [UInt8]
}

extension TopicSigner {
    /// The signature of a topic: over the UTF-8 bytes of the topic string alone.
    public func sign(topic: String) -> [UInt8] { sign(Array(topic.utf8)) }

    /// The space registration signature: over the UTF-8 bytes of the caller's account id.
    public func signRegistration(of accountID: String) -> [UInt8] { sign(Array(accountID.utf8)) }
}

/// A `TopicSigner` holding the space push key pair.
public struct SpacePushKeySigner: TopicSigner {
    private let keyPair: Ed25519.KeyPair
    public let spaceKey: String

    public init(keyPair: Ed25519.KeyPair) {
        self.keyPair = keyPair
        self.spaceKey = Base58.encode(keyPair.publicKey)
    }

    /// - Parameter seed: the 32-byte Ed25519 seed (SLIP-10 from the ACL's first metadata key).
    public init(seed: [UInt8]) throws {
        self.init(keyPair: try Ed25519.KeyPair(seed: seed))
    }

    public func sign(_ message: [UInt8]) -> [UInt8] { keyPair.sign(message) }
}
