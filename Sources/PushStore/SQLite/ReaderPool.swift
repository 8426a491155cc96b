import Synchronization

/// Read connections of a SQLite store. In WAL mode readers never wait for the writer and see every
/// committed transaction. A read takes an idle connection or opens one; at most `maxIdle` are kept.
final class ReaderPool: Sendable {
    private struct State {
        var idle: [SQLiteConnection] = []
        var closed = false
    }

    private let path: String
    private let maxIdle: Int
    private let state = Mutex(State())

    init(path: String, maxIdle: Int = 8) {
        self.path = path
        self.maxIdle = maxIdle
    }

    func read<T>(_ body: (SQLiteConnection) throws -> T) throws -> T {
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Closes the idle connections; ones in use close when they come back.
    func close() {
        let idle = state.withLock { state -> [SQLiteConnection] in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        _ = idle  // released (and closed) here, outside the lock
    }

    private func checkOut() throws -> SQLiteConnection {
        let reused = try state.withLock { state -> SQLiteConnection? in
            if state.closed { throw StoreError.closed }
            return state.idle.popLast()
        }
        if let reused { return reused }
        let connection = try SQLiteConnection(path: path, readOnly: true)
        try connection.execute("PRAGMA busy_timeout = 5000")
        return connection
    }

    private func checkIn(_ connection: SQLiteConnection) {
        state.withLock { state in
            if !state.closed && state.idle.count < maxIdle { state.idle.append(connection) }
        }
    }
}
