import PushCrypto

/// Seals a plaintext payload with one space's current payload key (AES-256-GCM, PROTOCOL §1).
///
/// The host may bind it to the shared `SealedPayload`/`PayloadKey` types; `AESGCMPayloadSealer`
/// is a complete implementation on `AESGCM`.
public protocol PayloadSealer: Sendable {
    /// Lowercase hex SHA-256 of the raw payload key: tells the receiver which key opens the payload.
    var keyId: String { get }
    /// `nonce(12) ‖ ciphertext ‖ tag(16)` with a fresh random nonce.
    func seal(_ plaintext: [UInt8]) throws -> [UInt8]
    /// Bytes the sealed form adds to the plaintext; the size budget uses it.
    var sealedOverhead: Int { get }
}

extension PayloadSealer {
    public var sealedOverhead: Int { AESGCM.nonceSize + AESGCM.tagSize }
}

/// AES-256-GCM payload sealing, 12-byte random nonce prefixed, 16-byte tag appended, no AAD.
public struct AESGCMPayloadSealer: PayloadSealer {
    private let key: [UInt8]
    public let keyId: String

    /// - Parameter key: the raw 32-byte payload key (SLIP-21 from the space's read key).
    public init(key: [UInt8]) throws {
        guard key.count == 32 else { throw CryptoError.invalidKeyLength(expected: 32, got: key.count) }
        self.key = key
        self.keyId = SHA256.hex(key)
    }

    public func seal(_ plaintext: [UInt8]) throws -> [UInt8] {
        try seal(plaintext, nonce: SecureRandom.bytes(AESGCM.nonceSize))
    }

    /// Seals with a given nonce: for vectors only, a nonce must never repeat under one key.
    public func seal(_ plaintext: [UInt8], nonce: [UInt8]) throws -> [UInt8] {
        nonce + (try AESGCM.seal(plaintext, key: key, nonce: nonce))
    }
}
