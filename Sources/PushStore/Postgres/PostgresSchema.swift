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
}
