/// Shared-database chores outside the store proper: applying the migrations before anything else
/// touches the schema, and the keys every node must share (`node_keys`).
package enum PostgresSchema {
    /// Connects once and applies pending migrations (under the advisory lock).
    package static func prepare(url: String) throws {
        let connection = try PGConnection(conninfo: url)
        try PostgresMigrations.apply(on: connection)
    }

    /// The value stored under `name`, storing `candidate` first when there is none: the first node
    /// to start wins, every node reads the winner.
    package static func sharedKey(named name: String, candidate: () throws -> String, url: String) throws -> String {
        let connection = try PGConnection(conninfo: url)
        try PostgresMigrations.apply(on: connection)
        let existing = try connection.query("SELECT value FROM node_keys WHERE name = $1", [.text(name)])
        if existing.rowCount > 0 { return existing.row(0).text(0) }
        try connection.run("""
            INSERT INTO node_keys (name, value, created_at)
            VALUES ($1, $2, (extract(epoch FROM clock_timestamp()) * 1000)::bigint)
            ON CONFLICT (name) DO NOTHING
            """, [.text(name), .text(try candidate())])
        return try connection.query("SELECT value FROM node_keys WHERE name = $1", [.text(name)]).row(0).text(0)
    }

    /// The value stored under `name`, or nil when no node stored one yet; reads only (no
    /// migration, no insert), for `pushnode check --live`.
    package static func storedSharedKey(named name: String, url: String) throws -> String? {
        let connection = try PGConnection(conninfo: url)
        guard try connection.query("SELECT to_regclass('node_keys') IS NOT NULL").row(0).bool(0) else { return nil }
        let rows = try connection.query("SELECT value FROM node_keys WHERE name = $1", [.text(name)])
        return rows.rowCount > 0 ? rows.row(0).text(0) : nil
    }
}
