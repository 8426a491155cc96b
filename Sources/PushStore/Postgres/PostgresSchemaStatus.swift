/// What a database holds of pushnode's schema, read without changing anything: what
/// `pushnode check --live` reports. The node itself migrates when it opens the store
/// (`PostgresSchema.prepare`), so a check never does.
package struct PostgresSchemaStatus: Sendable, Equatable {
    /// The applied migrations (`pushnode_schema.version`); nil when the database has none yet.
    package var found: Int?
    /// The migrations this build knows.
    package var supported: Int

    /// Whether this build can open the database: the schema is absent (the first start creates
    /// it), older (the start migrates it) or the same — never newer.
    package var isUsable: Bool { (found ?? 0) <= supported }

    /// Connects once and reads the version; throws `PGError` when it cannot connect or read.
    package static func read(url: String) throws -> PostgresSchemaStatus {
        let connection = try PGConnection(conninfo: url)
        let table = try connection.query("SELECT to_regclass('pushnode_schema') IS NOT NULL")
        guard table.row(0).bool(0) else { return PostgresSchemaStatus(found: nil, supported: PostgresMigrations.latestVersion) }
        let rows = try connection.query("SELECT version FROM pushnode_schema")
        return PostgresSchemaStatus(found: rows.rowCount == 0 ? 0 : rows.row(0).int(0), supported: PostgresMigrations.latestVersion)
    }
}
