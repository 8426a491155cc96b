import PushCrypto

/// A space push public key: 32 raw Ed25519 bytes, base58 on the wire (PROTOCOL §1).
///
/// Decoding accepts any base58 string of 32 bytes; `string` is always the canonical encoding, so
/// two spellings of one key never make two spaces (base58 has one spelling per byte string, so a
/// parsed key keeps its text rather than encoding the bytes again on every request).
public struct SpaceKey: Hashable, Sendable, Codable, CustomStringConvertible {
    /// The 32-byte Ed25519 public key.
    public let publicKey: [UInt8]
    /// base58 of `publicKey`.
    public let string: String

    public var description: String { string }

    public init(publicKey: [UInt8]) throws {
        guard publicKey.count == 32 else { throw CryptoError.invalidKeyLength(expected: 32, got: publicKey.count) }
        self.publicKey = publicKey
        self.string = Base58.encode(publicKey)
    }

    /// Parses the base58 form; throws unless it decodes to exactly 32 bytes.
    public init(_ text: String) throws {
        let publicKey = try Base58.decode(text)
        guard publicKey.count == 32 else { throw CryptoError.invalidKeyLength(expected: 32, got: publicKey.count) }
        self.publicKey = publicKey
        self.string = text
    }

    /// Verifies the space key's signature over `message` (a topic, or a caller account id).
    public func verify(signature: [UInt8], message: [UInt8]) -> Bool {
        Ed25519.verify(signature: signature, message: message, publicKey: publicKey)
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let text = try container.decode(String.self)
        do {
            try self.init(text)
        } catch {
            let path = FieldPath.render(container.codingPath)
            throw APIError.invalid(path, "\(path) must be base58 of a 32-byte key")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(string)
    }
}
