import Foundation
import PushProtocol

extension MemoryStore {
    // MARK: Spaces

    package func addSpace(_ spaceKey: String, account: String, at date: Date) throws {
        // No read returns when a space was added, so only its key is kept.
        try write { tables in _ = tables.spaces[account, default: []].insert(spaceKey) }
    }

    package func removeSpace(_ spaceKey: String, account: String) throws {
        try write { tables in
            tables.spaces[account]?.remove(spaceKey)
            if tables.spaces[account]?.isEmpty == true { tables.spaces[account] = nil }
            for topic in tables.subscriptions[account] ?? [] where topic.spaceKey.string == spaceKey {
                tables.unsubscribe(account, from: topic)
            }
        }
    }

    package func spaces(ofAccount account: String) throws -> Set<String> {
        try read { $0.spaces[account] ?? [] }
    }

    // MARK: Subscriptions

    package func replaceSubscriptions(ofAccount account: String, with topics: [TopicRef], limit: Int) throws -> Int {
        let unique = Set(topics)
        try SubscriptionLimit.check(unique.count, limit: limit)
        return try write { tables in
            for topic in tables.subscriptions[account] ?? [] where !unique.contains(topic) {
                tables.unsubscribe(account, from: topic)
            }
            for topic in unique { tables.subscribe(account, to: topic) }
            return unique.count
        }
    }

    package func addSubscriptions(ofAccount account: String, _ topics: [TopicRef], limit: Int) throws -> Int {
        try write { tables in
            let after = (tables.subscriptions[account] ?? []).union(topics)
            // Checked before the first change: nothing is added past the limit.
            try SubscriptionLimit.check(after.count, limit: limit)
            for topic in topics { tables.subscribe(account, to: topic) }
            return after.count
        }
    }

    package func removeSubscriptions(ofAccount account: String, _ topics: [TopicRef]) throws -> Int {
        try write { tables in
            for topic in topics { tables.unsubscribe(account, from: topic) }
            return tables.subscriptions[account]?.count ?? 0
        }
    }

    package func subscriptions(ofAccount account: String) throws -> [TopicRef] {
        try read { ($0.subscriptions[account] ?? []).sorted() }
    }

    package func recipients(of topics: [TopicRef]) throws -> [Recipient] {
        try read { $0.recipients(of: topics) }
    }
}
