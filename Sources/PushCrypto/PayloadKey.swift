/// The AES-256 key that seals a space's message payloads. It is derived from the space's
/// current read key (`SpaceKeys.payloadKey(readKey:)`), so it rotates with it; receivers
/// pick the right key by `keyId`. The raw key is zeroed when the object goes away.
public final class PayloadKey: @unchecked Sendable {  // immutable after init; deinit only wipes
    public static let size = 32

    private var key: [UInt8]
    /// Lowercase hex SHA-256 of the 32 raw key bytes (64 characters).
    public let keyId: String

    /// - Throws: `CryptoError.invalidKeyLength` unless `rawKey` is 32 bytes.
    public init(rawKey: [UInt8]) throws {
        guard rawKey.count == Self.size else { throw CryptoError.invalidKeyLength(expected: Self.size, got: rawKey.count) }
        key = rawKey
        keyId = SHA256.hex(rawKey)
    }

    /// The key from its standard base64 form.
    public convenience init(base64: String) throws {
        var raw = try Base64.decode(base64)
        defer { ConstantTime.wipe(&raw) }
        try self.init(rawKey: raw)
    }

    /// A fresh random key (for tests and tools; real keys are derived).
    public static func generate() -> PayloadKey {
        try! PayloadKey(rawKey: SecureRandom.bytes(size))
    }

    /// The raw key. Handle with care: whoever holds it reads every payload of the space.
    public var rawKey: [UInt8] { key }

    /// The raw key in standard base64 (`encKeyBase64` in the CLI and vectors).
    public var base64: String { Base64.encode(key) }

    /// Seals with a fresh random 12-byte nonce.
    public func seal(_ plaintext: [UInt8]) throws -> SealedPayload {
        try seal(plaintext, nonce: SecureRandom.bytes(AESGCM.nonceSize))
    }

    /// Seals with the given nonce. Only for test vectors: a nonce must never repeat under one key.
    public func seal(_ plaintext: [UInt8], nonce: [UInt8]) throws -> SealedPayload {
        let body = try AESGCM.seal(plaintext, key: key, nonce: nonce)
        return try SealedPayload(bytes: nonce + body)
    }

    /// Opens a sealed payload.
    /// - Throws: `CryptoError.authenticationFailed` for a wrong key or any altered byte.
    public func open(_ sealed: SealedPayload) throws -> [UInt8] {
        try AESGCM.open(sealed.ciphertextAndTag, key: key, nonce: sealed.nonce)
    }

    /// Whether both objects hold the same key (constant time).
    public func isSameKey(as other: PayloadKey) -> Bool {
        ConstantTime.equals(key, other.key)
    }

    deinit { ConstantTime.wipe(&key) }
}
