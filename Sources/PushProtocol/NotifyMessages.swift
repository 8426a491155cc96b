import PushCrypto

/// What a Notify asks for (PROTOCOL §4–§5); each kind has its default ttl.
public enum NotifyKind: String, Sendable, Codable, CaseIterable, Hashable {
    /// Shown to the user.
    case message
    /// Never shown: the app syncs in the background.
    case silent
    /// A ring, never delivered after its window.
    case call
    /// Never shown, urgent: withdraws what is still queued of the same group (a call that ended,
    /// a chat read elsewhere) and tells the app to take down what it shows.
    case clear

    /// The ttl used when the request gives none: a day, an hour, a 45-second ring window, a minute.
    public var defaultTTL: Int {
        switch self {
        case .message: return 86_400
        case .silent: return 3_600
        case .call: return 45
        case .clear: return 60
        }
    }

    /// Whether a Notify of this kind replaces the caller's undelivered pushes of its group when the
    /// request does not say (`replaces` absent): only a clear does.
    public var replacesByDefault: Bool { self == .clear }
}

/// The sealed message of a Notify; the node never opens it.
public struct NotifyMessage: Sendable, Equatable, Codable {
    /// Smallest sealed payload: a 12-byte nonce and a 16-byte tag.
    public static let minimumPayloadBytes = AESGCM.nonceSize + AESGCM.tagSize

    /// Lowercase hex SHA-256 of the payload key.
    public var keyId: String
    /// `nonce ‖ ciphertext ‖ tag` (standard base64 on the wire).
    public var payload: [UInt8]
    /// The caller's account key over the raw payload bytes.
    public var signature: [UInt8]

    public init(keyId: String, payload: [UInt8], signature: [UInt8]) {
        self.keyId = keyId
        self.payload = payload
        self.signature = signature
    }

    enum CodingKeys: String, CodingKey { case keyId, payload, signature }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        keyId = try c.decode(String.self, forKey: .keyId)
        payload = try c.decodeBase64(forKey: .payload)
        signature = try c.decodeBase64(forKey: .signature)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(keyId, forKey: .keyId)
        try c.encode(Base64.encode(payload), forKey: .payload)
        try c.encode(Base64.encode(signature), forKey: .signature)
    }

    /// Checks `keyId`, the payload's minimum size and the signature's length (not its validity).
    public func validateShape(at path: String = "message") throws(APIError) {
        guard TopicRules.isValidKeyId(keyId) else {
            throw APIError.invalid("\(path).keyId", "\(path).keyId must be 64 lowercase hex digits")
        }
        guard payload.count >= Self.minimumPayloadBytes else {
            throw APIError.invalid("\(path).payload", "\(path).payload is shorter than a nonce and a tag")
        }
        guard signature.count == 64 else {
            throw APIError.invalid("\(path).signature", "\(path).signature must be a 64-byte Ed25519 signature")
        }
    }

    /// Whether `account` signed the raw payload bytes.
    public func isSigned(by account: AccountID) -> Bool {
        account.verify(signature: signature, message: payload)
    }
}

/// `POST /v1/notify` (PROTOCOL §4).
public struct NotifyRequest: Sendable, Equatable, Codable {
    public var topics: [Topic]
    /// The sealed message; absent makes the Notify a content-free wake (PROTOCOL §4.1).
    public var message: NotifyMessage?
    /// The collapse key, 1–64 printable ASCII.
    public var groupId: String?
    /// Absent means `message`.
    public var kind: NotifyKind?
    /// Seconds, 1–2,419,200; absent means the kind's default.
    public var ttl: Int?
    /// Whether the caller's undelivered pushes of `groupId` to the same devices are withdrawn;
    /// absent means the kind's default (only `clear` replaces).
    public var replaces: Bool?

    public init(topics: [Topic], message: NotifyMessage?, groupId: String? = nil, kind: NotifyKind? = nil, ttl: Int? = nil,
                replaces: Bool? = nil) {
        self.topics = topics
        self.message = message
        self.groupId = groupId
        self.kind = kind
        self.ttl = ttl
        self.replaces = replaces
    }

    enum CodingKeys: String, CodingKey { case topics, message, groupId, kind, ttl, replaces }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        topics = try c.decode([Topic].self, forKey: .topics)
        message = try c.decodeIfPresent(NotifyMessage.self, forKey: .message)
        groupId = try c.decodeIfPresent(String.self, forKey: .groupId)
        kind = try c.decodeIfPresent(NotifyKind.self, forKey: .kind)
        ttl = try c.decodeIntegerIfPresent(forKey: .ttl)
        replaces = try c.decodeIfPresent(Bool.self, forKey: .replaces)
    }

    /// The kind, `message` by default.
    public var effectiveKind: NotifyKind { kind ?? .message }
    /// The ttl, the kind's default when absent.
    public var effectiveTTL: Int { ttl ?? effectiveKind.defaultTTL }
    /// Whether the Notify replaces, the kind's default when absent.
    public var effectiveReplaces: Bool { replaces ?? effectiveKind.replacesByDefault }

    /// Every shape rule that needs no configuration; the first failure is thrown with its path.
    public func validateShape() throws(APIError) {
        guard !topics.isEmpty else { throw APIError.invalid("topics", "topics must not be empty") }
        try NotifyShape.validate(topics: topics, groupId: groupId, ttl: ttl)
        try NotifyShape.validate(replaces: effectiveReplaces, groupId: groupId)
        try message?.validateShape()
    }

    /// The idempotency key: the message signature. A content-free wake has none, so it is never
    /// a duplicate: it carries no nonce that would tell a retry from the next wake of the same
    /// topics, and dropping a wake would lose a message while a repeated one only wakes the app
    /// twice (the providers fold pushes of one `groupId`).
    public var idempotencyKey: IdempotencyKey? { message.map { .message(signature: $0.signature) } }
}

/// `POST /v1/notify/silent`: wakes the caller's other devices (PROTOCOL §4).
public struct NotifySilentRequest: Sendable, Equatable, Codable {
    public var topics: [Topic]
    public var message: NotifyMessage?
    public var groupId: String?
    public var ttl: Int?
    /// The sending device, which is skipped.
    public var deviceId: String?
    /// Whether the caller's undelivered pushes of `groupId` to the same devices are withdrawn
    /// (a read on one device replacing the older read push of the same chat).
    public var replaces: Bool?

    public init(topics: [Topic], message: NotifyMessage? = nil, groupId: String? = nil, ttl: Int? = nil, deviceId: String? = nil,
                replaces: Bool? = nil) {
        self.topics = topics
        self.message = message
        self.groupId = groupId
        self.ttl = ttl
        self.deviceId = deviceId
        self.replaces = replaces
    }

    enum CodingKeys: String, CodingKey { case topics, message, groupId, ttl, deviceId, replaces }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        topics = try c.decode([Topic].self, forKey: .topics)
        message = try c.decodeIfPresent(NotifyMessage.self, forKey: .message)
        groupId = try c.decodeIfPresent(String.self, forKey: .groupId)
        ttl = try c.decodeIntegerIfPresent(forKey: .ttl)
        deviceId = try c.decodeIfPresent(String.self, forKey: .deviceId)
        replaces = try c.decodeIfPresent(Bool.self, forKey: .replaces)
    }

    /// The ttl, the `silent` default when absent.
    public var effectiveTTL: Int { ttl ?? NotifyKind.silent.defaultTTL }

    public func validateShape() throws(APIError) {
        try NotifyShape.validate(topics: topics, groupId: groupId, ttl: ttl)
        try NotifyShape.validate(replaces: replaces == true, groupId: groupId)
        try message?.validateShape()
    }

    /// The message signature, or without a message the canonical topics and group id.
    public var idempotencyKey: IdempotencyKey {
        if let message { return .message(signature: message.signature) }
        return .canonical(topics: topics.map(\.ref), groupId: groupId)
    }
}

/// `{"id", "duplicate", "queued"}`.
public struct NotifyResponse: Sendable, Equatable, Codable {
    public var id: String
    public var duplicate: Bool
    /// The deliveries this request queued: 0 when nobody holds a listed topic, and for a duplicate.
    public var queued: Int

    public init(id: String, duplicate: Bool, queued: Int = 0) {
        self.id = id
        self.duplicate = duplicate
        self.queued = queued
    }

    enum CodingKeys: String, CodingKey { case id, duplicate, queued }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        id = try c.decode(String.self, forKey: .id)
        duplicate = try c.decode(Bool.self, forKey: .duplicate)
        // A first-wave node does not send it.
        queued = try c.decodeIfPresent(Int.self, forKey: .queued) ?? 0
    }
}

/// Rules shared by both Notify forms.
enum NotifyShape {
    static func validate(topics: [Topic], groupId: String?, ttl: Int?) throws(APIError) {
        for (index, topic) in topics.enumerated() { try topic.validateShape(at: "topics[\(index)]") }
        if let groupId, !TopicRules.isValidGroupId(groupId) {
            throw APIError.invalid("groupId", "groupId must be 1–64 bytes of printable ASCII")
        }
        if let ttl, !TopicRules.isValidTTL(ttl) {
            throw APIError.invalid("ttl", "ttl must be 1–\(TopicRules.maxTTL) seconds")
        }
    }

    /// A replacing Notify (`replaces`, or kind `clear` by default) names the group it replaces.
    static func validate(replaces: Bool, groupId: String?) throws(APIError) {
        guard replaces, groupId == nil else { return }
        throw APIError(code: .missingField, message: "groupId is required to replace (replaces, or kind clear)",
                       field: "groupId")
    }
}
