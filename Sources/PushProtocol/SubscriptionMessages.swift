/// `PUT /v1/subscriptions` (replace all) and `POST /v1/subscriptions` (add): signed topics.
public struct SubscribeRequest: Sendable, Equatable, Codable {
    public var topics: [Topic]
    public init(topics: [Topic]) { self.topics = topics }
}

/// `POST /v1/subscriptions/remove`: unsigned topics.
public struct UnsubscribeRequest: Sendable, Equatable, Codable {
    public var topics: [TopicRef]
    public init(topics: [TopicRef]) { self.topics = topics }
}

/// `{"count"}`: the number of topics the caller holds after the change.
public struct SubscriptionCountResponse: Sendable, Equatable, Codable {
    public var count: Int
    public init(count: Int) { self.count = count }
}

/// `GET /v1/subscriptions`.
public struct SubscriptionsResponse: Sendable, Equatable, Codable {
    public var topics: [TopicRef]
    public init(topics: [TopicRef]) { self.topics = topics }
}
