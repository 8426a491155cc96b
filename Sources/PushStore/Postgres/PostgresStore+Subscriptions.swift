import Foundation
import PushProtocol

extension PostgresStore {
    // MARK: Spaces

    package func removeSpace(_ spaceKey: String, account: String) throws {
        try writeSubscriptions(ofAccount: account) { db in
            try db.run("DELETE FROM spaces WHERE account = $1 AND space_key = $2", [.text(account), .text(spaceKey)])
            try db.run("DELETE FROM subscriptions WHERE account = $1 AND space_key = $2", [.text(account), .text(spaceKey)])
        }
    }

    // MARK: Subscriptions

    package func removeSubscriptions(ofAccount account: String, _ topics: [TopicRef]) throws -> Int {
        try writeSubscriptions(ofAccount: account) { db in
            try db.run("""
                DELETE FROM subscriptions s USING unnest($2::text[], $3::text[]) AS t(space_key, topic)
                WHERE s.account = $1 AND s.space_key = t.space_key AND s.topic = t.topic
                """, [.text(account), .textArray(topics.map(\.spaceKey.string)), .textArray(topics.map(\.topic))])
            return try Self.countSubscriptions(account: account, db: db)
        }
    }

    package func subscriptions(ofAccount account: String) throws -> [TopicRef] {
        try read { db in
            // COLLATE "C": byte order, as the protocol (and SQLite's BINARY collation) sorts.
            try db.query("""
                SELECT space_key, topic FROM subscriptions WHERE account = $1
                ORDER BY space_key COLLATE "C", topic COLLATE "C"
                """, [.text(account)]).rows.map { row in
                TopicRef(spaceKey: try SpaceKey(row.text(0)), topic: row.text(1))
            }
        }
    }

    package func recipients(of topics: [TopicRef]) throws -> [Recipient] {
        let unique = Array(Set(topics))
        guard !unique.isEmpty else { return [] }
        return try read { db in
            let rows = try db.query(Self.recipientsSQL, [.textArray(unique.map(\.spaceKey.string)), .textArray(unique.map(\.topic))]).rows
            return rows.compactMap { row -> Recipient? in
                guard let platform = Platform(rawValue: row.text(3)) else { return nil }
                return Recipient(registrationId: row.text(0), account: row.text(1), deviceId: row.text(2), platform: platform)
            }
        }
    }

    /// The registrations of the subscribers of topics `$1` (space keys) and `$2` (topics, pairwise):
    /// index lookups per topic (`subscriptions_by_topic`) and per account (`registrations_by_account`)
    /// however skewed the store, as `PostgresMigrations.version8` declares topics small.
    static let recipientsSQL = """
        SELECT DISTINCT r.id, r.account, r.device_id, r.platform
        FROM unnest($1::text[], $2::text[]) AS t(space_key, topic)
        JOIN subscriptions s ON s.space_key = t.space_key AND s.topic = t.topic
        JOIN registrations r ON r.account = s.account
        """

    /// Serializes the subscription writes of one account across nodes (the limit check counts after
    /// inserting) with an advisory lock held for the length of the transaction.
    package func writeSubscriptions<T: Sendable>(ofAccount account: String,
                                         _ work: @escaping @Sendable (PGConnection) throws -> T) throws -> T {
        try write { db in
            try db.query("SELECT pg_advisory_xact_lock(hashtextextended($1, 0))", [.text("subscriptions/" + account)])
            return try work(db)
        }
    }

    package static func deleteSubscriptions(account: String, db: PGConnection) throws {
        try db.run("DELETE FROM subscriptions WHERE account = $1", [.text(account)])
    }

    package static func insertSubscriptions(_ topics: [TopicRef], account: String, db: PGConnection) throws {
        guard !topics.isEmpty else { return }
        try db.run("""
            INSERT INTO subscriptions (account, space_key, topic)
            SELECT $1, space_key, topic FROM unnest($2::text[], $3::text[]) AS t(space_key, topic)
            ON CONFLICT DO NOTHING
            """, [.text(account), .textArray(topics.map(\.spaceKey.string)), .textArray(topics.map(\.topic))])
    }

    package static func countSubscriptions(account: String, db: PGConnection) throws -> Int {
        try db.query("SELECT count(*) FROM subscriptions WHERE account = $1", [.text(account)]).row(0).int(0)
    }
}
