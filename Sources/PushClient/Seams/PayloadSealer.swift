import PushCrypto

/// Seals a plaintext payload with one space's current payload key (AES-256-GCM, PROTOCOL §1).
///
/// `PayloadKey` (PushCrypto) is the implementation: `SpaceKeys.payloadKey(readKey:)` gives the one
/// to use. The protocol stays so tests and hosts with their own key storage can stand in.
public protocol PayloadSealer: Sendable {
    /// Lowercase hex SHA-256 of the raw payload key: tells the receiver which key opens the payload.
    var keyId: String { get }
    /// `nonce(12) ‖ ciphertext ‖ tag(16)` with a fresh random nonce.
    func seal(_ plaintext: [UInt8]) throws -> SealedPayload
    /// Bytes the sealed form adds to the plaintext; the size budget uses it.
    var sealedOverhead: Int { get }
}

extension PayloadSealer {
    public var sealedOverhead: Int { SealedPayload.overhead }
}

/// The space's payload key seals payloads: one AES-GCM implementation for the node, tools and apps.
extension PayloadKey: PayloadSealer {}
