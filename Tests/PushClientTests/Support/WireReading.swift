/// The request bodies as a test reads them: plain strings, decoded independently of the
/// PushProtocol wire types the library encodes with (field names as PROTOCOL §3–§4).
struct WireTopic: Codable, Hashable, Sendable {
    var spaceKey: String
    var topic: String
    var signature: String
}

struct WireMessage: Codable, Hashable, Sendable {
    var keyId: String
    var payload: String
    var signature: String
}

/// `POST /v1/notify` and `/v1/notify/silent`.
struct WireNotify: Codable, Hashable, Sendable {
    var topics: [WireTopic]
    var message: WireMessage?
    var groupId: String?
    var kind: String?
    var ttl: Int?
    var deviceId: String?
    var replaces: Bool?
}

/// `PUT`/`POST /v1/subscriptions`.
struct WireTopics: Codable, Hashable, Sendable {
    var topics: [WireTopic]
}

/// `GET /v1/subscriptions`.
struct WireSubscriptionList: Codable, Hashable, Sendable {
    struct Entry: Codable, Hashable, Sendable {
        var spaceKey: String
        var topic: String
    }
    var topics: [Entry]
}
