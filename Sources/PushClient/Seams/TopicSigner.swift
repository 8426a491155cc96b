import PushCrypto
import PushProtocol

/// Signs with one space's push key (Ed25519): topics, and the space registration.
///
/// `SpacePushKey` (PushCrypto) is the implementation: `SpaceKeys.pushKey(firstMetadataKey:)` gives
/// the one to use. The protocol stays so tests and hosts holding the key elsewhere can stand in.
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

    /// The wire form of the space key.
    /// - Throws: `PushClientError` `client.bad_space_key` when `spaceKey` is not base58 of 32 bytes.
    public func wireSpaceKey() throws(PushClientError) -> SpaceKey {
        do {
            return try SpaceKey(spaceKey)
        } catch {
            throw PushClientError(code: .badSpaceKey, message: "the space key is not base58 of 32 bytes")
        }
    }

    /// `topics` signed with this space's key, as the node reads them (PROTOCOL §3 `Topic`).
    public func signedTopics(_ topics: [String]) throws(PushClientError) -> [Topic] {
        let key = try wireSpaceKey()
        return topics.map { Topic(spaceKey: key, topic: $0, signature: sign(topic: $0)) }
    }
}

/// The space push key signs topics and registrations: one Ed25519 implementation everywhere.
extension SpacePushKey: TopicSigner {
    public func sign(_ message: [UInt8]) -> [UInt8] { keyPair.sign(message) }
}
