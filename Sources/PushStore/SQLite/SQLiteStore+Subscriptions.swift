import Foundation
import PushProtocol

extension SQLiteStore {
    // MARK: Spaces

    package func removeSpace(_ spaceKey: String, account: String) throws {
        try write { db in
            try db.run("DELETE FROM spaces WHERE account = ? AND space_key = ?", [.text(account), .text(spaceKey)])
            try db.run("DELETE FROM subscriptions WHERE account = ? AND space_key = ?", [.text(account), .text(spaceKey)])
        }
    }

    // MARK: Subscriptions

    package func removeSubscriptions(ofAccount account: String, _ topics: [TopicRef]) throws -> Int {
        try write { db in
            for ref in topics {
                try db.run("DELETE FROM subscriptions WHERE account = ? AND space_key = ? AND topic = ?",
                           [.text(account), .text(ref.spaceKey.string), .text(ref.topic)])
            }
            return try Self.countSubscriptions(account: account, db: db)
        }
    }

    package func subscriptions(ofAccount account: String) throws -> [TopicRef] {
        try read { db in
            try db.query("SELECT space_key, topic FROM subscriptions WHERE account = ? ORDER BY space_key, topic",
                         [.text(account)]) { row in
                TopicRef(spaceKey: try SpaceKey(row.text(0)), topic: row.text(1))
            }
        }
    }

    package func recipients(of topics: [TopicRef]) throws -> [Recipient] {
        try read { db in try Self.recipients(of: topics, db: db) }
    }

    /// `recipients(of:)` on a connection already in a transaction.
    static func recipients(of topics: [TopicRef], db: SQLiteConnection) throws -> [Recipient] {
        var seen = Set<String>()
        var recipients: [Recipient] = []
        for ref in Set(topics) {
            let rows = try db.query("""
                SELECT r.id, r.account, r.device_id, r.platform
                FROM subscriptions s JOIN registrations r ON r.account = s.account
                WHERE s.space_key = ? AND s.topic = ?
                """, [.text(ref.spaceKey.string), .text(ref.topic)]) { row -> Recipient? in
                guard let platform = Platform(rawValue: row.text(3)) else { return nil }
                return Recipient(registrationId: row.text(0), account: row.text(1), deviceId: row.text(2), platform: platform)
            }
            for case let recipient? in rows where seen.insert(recipient.registrationId).inserted {
                recipients.append(recipient)
            }
        }
        return recipients
    }

    /// SQLite's one writer runs one job at a time: no other write sees the account's count change
    /// before this one commits.
    package func writeSubscriptions<T: Sendable>(ofAccount account: String,
                                         _ work: @escaping @Sendable (SQLiteConnection) throws -> T) throws -> T {
        try write(work)
    }

    package static func deleteSubscriptions(account: String, db: SQLiteConnection) throws {
        try db.run("DELETE FROM subscriptions WHERE account = ?", [.text(account)])
    }

    package static func insertSubscriptions(_ topics: [TopicRef], account: String, db: SQLiteConnection) throws {
        for ref in topics {
            try db.run("INSERT OR IGNORE INTO subscriptions (account, space_key, topic) VALUES (?, ?, ?)",
                       [.text(account), .text(ref.spaceKey.string), .text(ref.topic)])
        }
    }

    package static func countSubscriptions(account: String, db: SQLiteConnection) throws -> Int {
        try db.queryFirst("SELECT count(*) FROM subscriptions WHERE account = ?", [.text(account)]) { $0.int(0) } ?? 0
    }
}
