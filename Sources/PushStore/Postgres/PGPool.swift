import Dispatch
import Synchronization

/// A bounded pool of connections to one database.
///
/// At most `size` connections are in use at once (callers beyond that wait); idle ones are kept.
/// A connection that failed is dropped instead of returned, and the next checkout connects anew,
/// so a restarted server or a cut network costs the requests in flight at that moment only.
final class PGPool: Sendable {
    private struct State {
        var idle: [PGConnection] = []
        var closed = false
    }

    let conninfo: String
    private let slots: DispatchSemaphore
    private let state = Mutex(State())

    init(conninfo: String, size: Int) {
        self.conninfo = conninfo
        slots = DispatchSemaphore(value: max(1, size))
    }

    /// Runs `body` on a checked-out connection.
    func withConnection<T>(_ body: (PGConnection) throws -> T) throws -> T {
        slots.wait()
        defer { slots.signal() }
        let connection = try checkOut()
        defer { checkIn(connection) }
        return try body(connection)
    }

    /// Closes idle connections; connections in use close when they come back.
    func close() {
        let idle = state.withLock { state -> [PGConnection] in
            state.closed = true
            defer { state.idle = [] }
            return state.idle
        }
        _ = idle  // released (and closed) here, outside the lock
    }

    private func checkOut() throws -> PGConnection {
        let reused = try state.withLock { state -> PGConnection? in
            if state.closed { throw StoreError.closed }
            return state.idle.popLast()
        }
        if let reused, reused.isHealthy { return reused }
        return try PGConnection(conninfo: conninfo)
    }

    private func checkIn(_ connection: PGConnection) {
        // A connection left inside a transaction (a caller's bug or a failed rollback) is not reused.
        guard connection.isHealthy, !connection.isInTransaction else { return }
        state.withLock { state in
            if !state.closed { state.idle.append(connection) }
        }
    }
}
