/// Read connections of a SQLite store. In WAL mode readers never wait for the writer and see every
/// committed transaction. A read takes an idle connection or opens one (no bound: a read never
/// waits for another); at most `maxIdle` are kept.
typealias ReaderPool = ConnectionPool<SQLiteConnection>

extension ConnectionPool where Connection == SQLiteConnection {
    /// Read-only connections to the database at `path`.
    static func readers(path: String, maxIdle: Int = 8) -> ReaderPool {
        ReaderPool(maxInUse: nil, maxIdle: maxIdle) {
            let connection = try SQLiteConnection(path: path, readOnly: true)
            try connection.execute("PRAGMA busy_timeout = 5000")
            return connection
        }
    }
}

extension SQLiteConnection: PooledConnection {
    /// A read connection stays usable whatever a read did (reads open no transaction).
    var isReusable: Bool { true }
}
