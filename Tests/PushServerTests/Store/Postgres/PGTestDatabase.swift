import Foundation
@testable import PushServer

/// A schema of its own on the test cluster `PUSHNODE_TEST_PG_URL` names (`make test` starts one
/// with Tests/Support/pg-cluster.sh); dropped when the value goes away.
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

    let schema = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
    /// A URL whose connections use the schema.
    let url: String

    init() throws {
        guard let base = Self.baseURL else { throw PGError(message: "PUSHNODE_TEST_PG_URL unset") }
        let admin = try PGConnection(conninfo: base)
        try admin.execute("CREATE SCHEMA \(schema)")
        url = base + (base.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(schema)"
    }

    deinit {
        if let base = Self.baseURL, let admin = try? PGConnection(conninfo: base) {
            _ = try? admin.execute("DROP SCHEMA \(schema) CASCADE")
        }
    }

    /// A direct connection, for checks and for breaking things.
    func connect() throws -> PGConnection { try PGConnection(conninfo: url) }
}
