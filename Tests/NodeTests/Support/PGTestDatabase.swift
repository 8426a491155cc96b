import Foundation
@testable import PushStore

/// A schema of its own on the test cluster `PUSHNODE_TEST_PG_URL` names (`make test` starts one
/// with Tests/pg-cluster.sh); dropped when the value goes away.
final class PGTestDatabase: @unchecked Sendable {
    /// The cluster's URL, or nil (then PostgreSQL tests are skipped, with a note on stderr).
    static let baseURL: String? = {
        let url = ProcessInfo.processInfo.environment["PUSHNODE_TEST_PG_URL"].flatMap { $0.isEmpty ? nil : $0 }
        if url == nil {
            FileHandle.standardError.write(Data(
                "note: PUSHNODE_TEST_PG_URL is unset: PostgreSQL store tests are skipped (make test sets it)\n".utf8))
        }
        return url
    }()

    static var isAvailable: Bool { baseURL != nil }

    private let scratch: PostgresScratchSchema
    var schema: String { scratch.name }
    /// A URL whose connections use the schema.
    var url: String { scratch.url }

    init() throws {
        guard let base = Self.baseURL else { throw PGError(message: "PUSHNODE_TEST_PG_URL unset") }
        scratch = try PostgresScratchSchema(baseURL: base)
    }

    deinit { scratch.drop() }

    /// Cuts every connection of this schema's stores (as a server restart or a network failure would);
    /// returns how many.
    @discardableResult
    func terminateConnections(except survivor: PGConnection? = nil) throws -> Int {
        let admin = try PGConnection(conninfo: Self.baseURL!)
        return try admin.query("""
            SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity
            WHERE application_name = $1 AND pid <> pg_backend_pid()
            """, [.text(schema)]).row(0).int(0)
    }

    /// A direct connection, for checks and for breaking things.
    func connect() throws -> PGConnection { try PGConnection(conninfo: url) }

    /// A store on the schema with two connections and no listener (for plan and migration tests).
    func smallStore() throws -> PostgresStore {
        try PostgresStore(url: url, nodeID: "node-a", configuration: .init(poolSize: 2, listens: false))
    }
}

extension PGConnection {
    /// The plan PostgreSQL picks for `EXECUTE statement(arguments)` of a statement this connection
    /// `PREPARE`d, under `plan_cache_mode = mode` (`force_generic_plan` is the plan a reused
    /// prepared statement gets), as one text.
    func plan(executing statement: String, _ arguments: String, mode: String) throws -> String {
        try execute("SET plan_cache_mode = \(mode)")
        return try execute("EXPLAIN EXECUTE \(statement)(\(arguments))").rows.map { $0.text(0) }.joined(separator: "\n")
    }
}
