import Foundation
import PushProtocol

/// A parameter of a statement both SQL stores run (`SQLStore`).
package enum SQLParameter: Sendable {
    case text(String)
    case integer(Int64)
}

/// A dialect's parameter value (`SQLiteValue`, `PGValue`), as far as `SQLParameter` needs it.
protocol SQLBindable {
    static func text(_ text: String) -> Self
    static func integer(_ number: Int64) -> Self
}

extension SQLBindable {
    /// `parameter` as the dialect binds it.
    init(_ parameter: SQLParameter) {
        switch parameter {
        case .text(let text): self = .text(text)
        case .integer(let number): self = .integer(number)
        }
    }
}

extension SQLiteValue: SQLBindable {}
extension PGValue: SQLBindable {}

/// What SQLite and PostgreSQL run alike, written once: the statements whose text the two dialects
/// agree on, over the column names both schemas share. A store gives one statement in a write
/// transaction of its own and a read mapped row by row; what one dialect does differently (an
/// upsert's `RETURNING`, PostgreSQL's advisory locks, a collation) stays in that store's own file.
///
/// The text is PostgreSQL's: parameters `$1`, `$2`, … each first used in that order. SQLite takes
/// `$1` as a named parameter and numbers names in order of first use, so the two bind alike.
package protocol SQLStore: PushStore {
    /// Runs `sql` in a write transaction of its own; the rows it changed.
    func writeStatement(_ sql: String, _ parameters: [SQLParameter]) throws -> Int
    /// Runs the read `sql` and maps its rows.
    func readRows<T>(_ sql: String, _ parameters: [SQLParameter], _ map: (any StoreRow) throws -> T) throws -> [T]

    // MARK: Subscription writes: the steps each dialect takes its own way

    /// A connection inside one of the store's write transactions.
    associatedtype Connection
    /// Runs `work` in a write transaction of its own that no other write of `account`'s
    /// subscriptions runs beside, so that a count taken in it holds until it commits (PostgreSQL
    /// takes an advisory lock on the account, across nodes; SQLite's one writer runs one job at a time).
    func writeSubscriptions<T: Sendable>(ofAccount account: String,
                                         _ work: @escaping @Sendable (Connection) throws -> T) throws -> T
    /// Deletes all of `account`'s subscriptions.
    static func deleteSubscriptions(account: String, db: Connection) throws
    /// Inserts those of `topics` that `account` does not have yet.
    static func insertSubscriptions(_ topics: [TopicRef], account: String, db: Connection) throws
    /// How many subscriptions `account` has.
    static func countSubscriptions(account: String, db: Connection) throws -> Int
}

extension SQLStore {
    package func deleteRegistrations(ofAccount account: String, deviceId: String) throws -> Int {
        try writeStatement("DELETE FROM registrations WHERE account = $1 AND device_id = $2", [.text(account), .text(deviceId)])
    }

    package func deleteRegistrations(ofAccount account: String, platform: Platform, token: String) throws -> Int {
        try writeStatement("DELETE FROM registrations WHERE account = $1 AND platform = $2 AND token = $3",
                           [.text(account), .text(platform.rawValue), .text(token)])
    }

    package func pruneRegistration(_ registrationId: String, notUpdatedAfter: Date) throws -> Bool {
        try writeStatement("DELETE FROM registrations WHERE id = $1 AND updated_at <= $2",
                           [.text(registrationId), .integer(notUpdatedAfter.unixMilliseconds)]) > 0
    }

    package func registrationCounts() throws -> [Platform: Int] {
        let rows = try readRows("SELECT platform, count(*) FROM registrations GROUP BY platform", []) {
            (Platform(rawValue: $0.text(0)), $0.int(1))
        }
        return rows.reduce(into: [:]) { counts, row in if let platform = row.0 { counts[platform] = row.1 } }
    }

    package func registrationCountsByApp() throws -> [String: Int] {
        Dictionary(uniqueKeysWithValues: try readRows("SELECT app_id, count(*) FROM registrations GROUP BY app_id", []) {
            ($0.text(0), $0.int(1))
        })
    }

    package func replaceSubscriptions(ofAccount account: String, with topics: [TopicRef], limit: Int) throws -> Int {
        let unique = try SubscriptionLimit.distinct(topics, limit: limit)
        return try writeSubscriptions(ofAccount: account) { db in
            try Self.deleteSubscriptions(account: account, db: db)
            try Self.insertSubscriptions(unique, account: account, db: db)
            return unique.count
        }
    }

    package func addSubscriptions(ofAccount account: String, _ topics: [TopicRef], limit: Int) throws -> Int {
        try writeSubscriptions(ofAccount: account) { db in
            try Self.insertSubscriptions(topics, account: account, db: db)
            let count = try Self.countSubscriptions(account: account, db: db)
            // Thrown inside the write (PostgreSQL's transaction, the savepoint of SQLite's job): it
            // is rolled back, so nothing was added.
            try SubscriptionLimit.check(count, limit: limit)
            return count
        }
    }

    package func addSpace(_ spaceKey: String, account: String, at date: Date) throws {
        _ = try writeStatement("INSERT INTO spaces (account, space_key, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING",
                               [.text(account), .text(spaceKey), .integer(date.unixMilliseconds)])
    }

    package func spaces(ofAccount account: String) throws -> Set<String> {
        Set(try readRows("SELECT space_key FROM spaces WHERE account = $1", [.text(account)]) { $0.text(0) })
    }
}
