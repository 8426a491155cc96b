import PushCrypto

/// A space push public key: 32 raw Ed25519 bytes, base58 on the wire (PROTOCOL §1).
///
/// Decoding accepts any base58 string of 32 bytes; `string` is always the canonical encoding, so
/// two spellings of one key never make two spaces (base58 has one spelling per byte string, so a
/// parsed key keeps its text rather than encoding the bytes again on every request).
public struct SpaceKey: Ed25519Identity, Hashable, Codable {
    public let publicKey: [UInt8]
    /// base58 of `publicKey`.
    public let string: String

    public init(publicKey: [UInt8]) throws {
        self.publicKey = try Ed25519.checkedPublicKey(publicKey)
        self.string = Base58.encode(publicKey)
    }

    /// Parses the base58 form; throws unless it decodes to exactly 32 bytes.
    public init(_ text: String) throws {
        self.publicKey = try Ed25519.checkedPublicKey(try Base58.decode(text))
        self.string = text
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
