import PushCrypto

/// A signed topic: the space push key's Ed25519 signature over the UTF-8 bytes of `topic`.
public struct Topic: Hashable, Sendable, Codable {
    public var spaceKey: SpaceKey
    public var topic: String
    /// Raw 64-byte signature (standard base64 on the wire).
    public var signature: [UInt8]

    public init(spaceKey: SpaceKey, topic: String, signature: [UInt8]) {
        self.spaceKey = spaceKey
        self.topic = topic
        self.signature = signature
    }

    /// The unsigned `(spaceKey, topic)` pair.
    public var ref: TopicRef { TopicRef(spaceKey: spaceKey, topic: topic) }

    /// Whether `signature` is the space key's signature of `topic`.
    public var hasValidSignature: Bool { spaceKey.verify(signature: signature, message: Array(topic.utf8)) }

    enum CodingKeys: String, CodingKey { case spaceKey, topic, signature }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        spaceKey = try c.decode(SpaceKey.self, forKey: .spaceKey)
        topic = try c.decode(String.self, forKey: .topic)
        signature = try c.decodeBase64(forKey: .signature)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(spaceKey, forKey: .spaceKey)
        try c.encode(topic, forKey: .topic)
        try c.encode(Base64.encode(signature), forKey: .signature)
    }

    /// Checks the topic text and the signature's length (not its validity) at `topics[index]`.
    public func validateShape(at path: String) throws(APIError) {
        try ref.validate(at: path)
        guard signature.count == 64 else {
            throw APIError.invalid("\(path).signature", "\(path).signature must be a 64-byte Ed25519 signature")
        }
    }
}

/// An unsigned `(spaceKey, topic)` pair: what a subscription holds.
public struct TopicRef: Hashable, Sendable, Codable, Comparable, CustomStringConvertible {
    public var spaceKey: SpaceKey
    public var topic: String

    public init(spaceKey: SpaceKey, topic: String) {
        self.spaceKey = spaceKey
        self.topic = topic
    }

    public var description: String { "\(spaceKey)/\(topic)" }

    /// Checks the topic rules (1–256 bytes UTF-8, no control characters) at `path`.
    public func validate(at path: String) throws(APIError) {
        guard TopicRules.isValidTopic(topic) else {
            throw APIError.invalid("\(path).topic", "\(path).topic must be 1–256 bytes of UTF-8 without control characters")
        }
    }

    /// Byte order of `(spaceKey, topic)`: the canonical order of idempotency keys and listings.
    public static func < (lhs: TopicRef, rhs: TopicRef) -> Bool {
        if lhs.spaceKey.string != rhs.spaceKey.string {
            return lhs.spaceKey.string.utf8.lexicographicallyPrecedes(rhs.spaceKey.string.utf8)
        }
        return lhs.topic.utf8.lexicographicallyPrecedes(rhs.topic.utf8)
    }
}
