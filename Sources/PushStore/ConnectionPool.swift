import Dispatch
import PushSupport

/// A database connection a `ConnectionPool` can hand out again.
protocol PooledConnection: AnyObject, Sendable {
    /// Whether the connection may go back to (or come out of) the idle set: false for one the
    /// server closed, or one left inside a transaction.
    var isReusable: Bool { get }
}

/// The connections of one database, shared by the threads of a store: a checkout takes an idle
/// connection or opens one, a return keeps it idle (up to `maxIdle`) unless it is no longer
/// reusable, and `maxInUse`, when set, bounds how many are out at once (callers beyond it wait).
///
/// What a store needs beyond that stays in the store: how a connection is opened (read-only for
/// SQLite readers, a libpq conninfo for PostgreSQL) is the `open` closure, and what makes one
/// unusable is `PooledConnection.isReusable` — a dropped PostgreSQL connection is simply not
/// returned, so the next checkout reconnects and a restarted server costs only the requests in
/// flight at that moment.
///
/// The hot path is one lock round trip to check out and one to return (plus the semaphore wait
/// when bounded); opening and closing connections happen outside the lock.
final class ConnectionPool<Connection: PooledConnection>: Sendable {
    private struct State {
        var idle: [Connection] = []
        var closed = false
    }

    private let open: @Sendable () throws -> Connection
    private let maxIdle: Int
    private let slots: DispatchSemaphore?
    private let state = Protected(State())

    /// - Parameters:
    ///   - maxInUse: most connections checked out at once; nil for no bound (callers never wait).
    ///   - maxIdle: most idle connections kept; returns beyond it close the connection.
    ///   - open: opens a new connection (called outside the lock, on the checking-out thread).
    init(maxInUse: Int?, maxIdle: Int, open: @escaping @Sendable () throws -> Connection) {
        self.open = open
        self.maxIdle = maxIdle
        slots = maxInUse.map { DispatchSemaphore(value: max(1, $0)) }
    }

    /// Runs `body` on a checked-out connection and returns it to the pool afterwards.
    func withConnection<T>(_ body: (Connection) throws -> T) throws -> T {
        slots?.wait()
        defer { slots?.signal() }
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Closes the idle connections; ones in use close when they come back. Later checkouts throw
    /// `StoreError.closed`.
    func close() {
        let idle = state.withLock { state -> [Connection] in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        _ = idle  // released (and closed) here, outside the lock
    }

    private func checkOut() throws -> Connection {
        let reused = try state.withLock { state -> Connection? in
            if state.closed { throw StoreError.closed }
            return state.idle.popLast()
        }
        if let reused, reused.isReusable { return reused }
        return try open()
    }

    private func checkIn(_ connection: Connection) {
        guard connection.isReusable else { return }
        state.withLock { state in
            if !state.closed && state.idle.count < maxIdle { state.idle.append(connection) }
        }
    }
}
