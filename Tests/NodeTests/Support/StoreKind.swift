import Foundation
@testable import PushStore

/// The stores the contract tests run against: memory and SQLite always, PostgreSQL when a test
/// cluster is set.
enum StoreKind: String, CustomStringConvertible, Sendable {
    case memory, sqlite, postgres

    static var available: [StoreKind] { PGTestDatabase.isAvailable ? [.memory, .sqlite, .postgres] : [.memory, .sqlite] }

    var description: String { rawValue }
}

/// A fresh store of one kind, reopenable, with a row counter for checks.
final class ContractFixture {
    let kind: StoreKind
    private let directory = TemporaryDirectory()
    private let database: PGTestDatabase?
    private let claimLease: TimeInterval
    private(set) var store: any PushStore

    init(_ kind: StoreKind, claimLease: TimeInterval = 60) throws {
        self.kind = kind
        self.claimLease = claimLease
        database = kind == .postgres ? try PGTestDatabase() : nil
        store = try Self.open(kind, directory: directory, database: database, claimLease: claimLease)
    }

    private static func open(_ kind: StoreKind, directory: TemporaryDirectory, database: PGTestDatabase?,
                             claimLease: TimeInterval) throws -> any PushStore {
        switch kind {
        case .memory:
            return MemoryStore(claimLease: claimLease)
        case .sqlite:
            return try SQLiteStore(path: directory.databasePath, configuration: .init(claimLease: claimLease))
        case .postgres:
            return try PostgresStore(url: database!.url, nodeID: "node-a",
                                     configuration: .init(claimLease: claimLease, poolSize: 4, listens: false))
        }
    }

    /// Closes and opens the same database again (the same node id: a restart; for memory, the
    /// rows a restart would find if they survived).
    func reopen() throws {
        if let memory = store as? MemoryStore {
            store = memory.restarted()
            return
        }
        store.close()
        store = try Self.open(kind, directory: directory, database: database, claimLease: claimLease)
    }

    /// Deliveries still queued or in flight: outbox rows, and the ids of unexpanded recipient chunks.
    func queuedDeliveries() throws -> Int {
        let chunked: Int
        switch store {
        case let sqlite as SQLiteStore:
            chunked = try sqlite.read { db in try db.queryFirst("SELECT coalesce(sum(remaining), 0) FROM recipient_chunks") { $0.int(0) } ?? 0 }
        case let postgres as PostgresStore:
            chunked = try postgres.read { db in try db.query("SELECT coalesce(sum(remaining), 0) FROM recipient_chunks").row(0).int(0) }
        default:
            chunked = 0
        }
        return try count("outbox") + chunked
    }

    func count(_ table: String) throws -> Int {
        switch store {
        case let memory as MemoryStore:
            return try memory.read { tables in
                switch table {
                case "registrations": return tables.registrations.count
                case "idempotency": return tables.idempotency.count
                case "notifications": return tables.notifications.count
                case "outbox": return tables.outbox.values.reduce(0) { $0 + $1.count }
                default: return -1
                }
            }
        case let sqlite as SQLiteStore:
            return try sqlite.read { db in try db.queryFirst("SELECT count(*) FROM \(table)") { $0.int(0) } ?? -1 }
        case let postgres as PostgresStore:
            return try postgres.read { db in try db.query("SELECT count(*) FROM \(table)").row(0).int(0) }
        default:
            return -1
        }
    }

    deinit { store.close() }
}
