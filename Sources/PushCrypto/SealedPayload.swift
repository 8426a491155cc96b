/// A sealed message payload: `nonce(12) ‖ AES-256-GCM ciphertext ‖ tag(16)`, no AAD.
/// Carried as standard base64 in JSON (`message.payload`, `x-any-payload`).
public struct SealedPayload: Hashable, Sendable {
    /// Bytes added to the plaintext by sealing: nonce and tag.
    public static let overhead = AESGCM.nonceSize + AESGCM.tagSize

    /// The whole sealed form.
    public let bytes: [UInt8]

    /// - Throws: `CryptoError.invalidEncoding` when shorter than `overhead` (28) bytes.
    public init(bytes: [UInt8]) throws {
        guard bytes.count >= Self.overhead else {
            throw CryptoError.invalidEncoding("sealed payload: \(bytes.count) bytes, at least \(Self.overhead) needed")
        }
        self.bytes = bytes
    }

    /// Decodes standard base64 (with padding), then checks the length.
    public init(base64: String) throws {
        try self.init(bytes: Base64.decode(base64))
    }

    /// Standard base64 with padding.
    public var base64: String { Base64.encode(bytes) }

    /// The 12-byte nonce at the front.
    public var nonce: [UInt8] { Array(bytes[0..<AESGCM.nonceSize]) }

    /// `ciphertext ‖ tag`, the part after the nonce.
    public var ciphertextAndTag: [UInt8] { Array(bytes[AESGCM.nonceSize...]) }

    /// The sealed size of a plaintext of `count` bytes.
    public static func sealedSize(plaintextCount count: Int) -> Int { count + overhead }
}
