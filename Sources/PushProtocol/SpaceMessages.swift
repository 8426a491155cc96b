import PushCrypto

/// `POST /v1/spaces` and `POST /v1/spaces/remove`: the space key signs the UTF-8 caller account id.
public struct SpaceRequest: Sendable, Equatable, Codable {
    public var spaceKey: SpaceKey
    /// Raw 64-byte signature (standard base64 on the wire).
    public var signature: [UInt8]

    public init(spaceKey: SpaceKey, signature: [UInt8]) {
        self.spaceKey = spaceKey
        self.signature = signature
    }

    enum CodingKeys: String, CodingKey { case spaceKey, signature }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        spaceKey = try c.decode(SpaceKey.self, forKey: .spaceKey)
        signature = try c.decodeBase64(forKey: .signature)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(spaceKey, forKey: .spaceKey)
        try c.encode(Base64.encode(signature), forKey: .signature)
    }

    /// Whether the space key signed `account` (its UTF-8 text form).
    public func isSigned(for account: AccountID) -> Bool {
        spaceKey.verify(signature: signature, message: Array(account.string.utf8))
    }
}
