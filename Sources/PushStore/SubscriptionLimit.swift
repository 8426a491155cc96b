import PushProtocol

/// The bound on one account's subscriptions, checked the same way by every store (one home for
/// the rule the memory, SQLite and PostgreSQL stores each wrote out twice).
enum SubscriptionLimit {
    /// `topics`, each once, for a replacement; `subscriptionLimitExceeded` when more than `limit`.
    static func distinct(_ topics: [TopicRef], limit: Int) throws -> [TopicRef] {
        let unique = Array(Set(topics))
        try check(unique.count, limit: limit)
        return unique
    }

    /// `subscriptionLimitExceeded` when an account would hold `count` subscriptions, past `limit`.
    static func check(_ count: Int, limit: Int) throws {
        guard count <= limit else { throw StoreError.subscriptionLimitExceeded(limit: limit) }
    }
}
