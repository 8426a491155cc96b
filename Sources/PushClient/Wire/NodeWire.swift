import PushProtocol

/// The JSON bodies PushClient sends to and reads from the node, field names exactly as
/// PROTOCOL §3–§4. Kept here so the client builds on its own; the host may later swap them for the
/// shared PushProtocol wire types (the bytes are the same).
public enum NodeWire {
    /// A signed topic: the space push key's signature over the UTF-8 topic.
    public struct Topic: Codable, Hashable, Sendable {
        public var spaceKey: String
        public var topic: String
        /// Standard base64 of the 64-byte Ed25519 signature.
        public var signature: String

        public init(spaceKey: String, topic: String, signature: String) {
            self.spaceKey = spaceKey
            self.topic = topic
            self.signature = signature
        }
    }

    /// The sealed message of a Notify.
    public struct Message: Codable, Hashable, Sendable {
        public var keyId: String
        /// Standard base64 of `nonce ‖ ciphertext ‖ tag`.
        public var payload: String
        /// Standard base64 of the account key's signature over the raw sealed payload bytes.
        public var signature: String

        public init(keyId: String, payload: String, signature: String) {
            self.keyId = keyId
            self.payload = payload
            self.signature = signature
        }
    }

    /// `POST /v1/notify` (with `kind`) and `POST /v1/notify/silent` (with `deviceId`, no `kind`).
    public struct Notify: Codable, Hashable, Sendable {
        public var topics: [Topic]
        public var message: Message?
        public var groupId: String?
        public var kind: String?
        public var ttl: Int?
        public var deviceId: String?

        public init(topics: [Topic], message: Message? = nil, groupId: String? = nil, kind: String? = nil,
                    ttl: Int? = nil, deviceId: String? = nil) {
            self.topics = topics
            self.message = message
            self.groupId = groupId
            self.kind = kind
            self.ttl = ttl
            self.deviceId = deviceId
        }
    }

    /// `200 {"id", "duplicate"}` of both Notify routes.
    public struct NotifyAnswer: Codable, Hashable, Sendable {
        public var id: String
        public var duplicate: Bool
    }

    /// `PUT`/`POST /v1/subscriptions` body.
    public struct SignedTopics: Codable, Hashable, Sendable {
        public var topics: [Topic]
    }

    /// `200 {"count"}` of the subscription writes.
    public struct CountAnswer: Codable, Hashable, Sendable {
        public var count: Int
    }

    /// `GET /v1/subscriptions` answer: unsigned topics.
    public struct SubscriptionList: Codable, Hashable, Sendable {
        public struct Entry: Codable, Hashable, Sendable {
            public var spaceKey: String
            public var topic: String
        }
        public var topics: [Entry]
    }

    /// `POST /v1/tokens` body.
    public struct SetToken: Codable, Hashable, Sendable {
        public var deviceId: String
        public var platform: String
        public var token: String
        public var p256dh: String?
        public var auth: String?
        public var appId: String?
        public var environment: String?
    }

    /// `200 {"registrationId"}`.
    public struct RegistrationAnswer: Codable, Hashable, Sendable {
        public var registrationId: String
    }

    /// `POST /v1/tokens/revoke` body: `{deviceId}` or `{token, platform}`.
    public struct RevokeToken: Codable, Hashable, Sendable {
        public var deviceId: String?
        public var token: String?
        public var platform: String?
    }

    /// `POST /v1/spaces` and `/v1/spaces/remove` body.
    public struct SpaceRegistration: Codable, Hashable, Sendable {
        public var spaceKey: String
        public var signature: String
    }

    /// The part of `GET /v1/capabilities` the client reads. Missing limits fall back to the defaults.
    public struct Capabilities: Codable, Hashable, Sendable {
        public struct LimitValues: Codable, Hashable, Sendable {
            public var maxPayloadBytes: Int?
            public var maxTopicsPerRequest: Int?
            public var maxSubscriptions: Int?
        }
        public var version: String?
        public var limits: LimitValues?

        /// The limits, each missing one taken from `defaults`.
        public func limits(defaults: Limits) -> Limits {
            var result = defaults
            if let v = limits?.maxPayloadBytes, v > 0 { result.maxPayloadBytes = v }
            if let v = limits?.maxTopicsPerRequest, v > 0 { result.maxTopicsPerRequest = v }
            if let v = limits?.maxSubscriptions, v > 0 { result.maxSubscriptions = v }
            return result
        }
    }

    /// `{"error": {"code", "message", "field"}}`.
    public struct ErrorAnswer: Codable, Hashable, Sendable {
        public struct Body: Codable, Hashable, Sendable {
            public var code: String
            public var message: String?
            public var field: String?
        }
        public var error: Body
    }
}
