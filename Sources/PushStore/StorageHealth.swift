import PushSupport

/// Whether the node's storage works, as the last store call found it: a fault starts with a
/// failed call and ends with the next call that succeeds. `/readyz` answers 503
/// `storage_unavailable` while it lasts (PROTOCOL §3.2 `storage.unavailable`).
///
/// One instance per node, fed by every store call the service makes and, when the replay window
/// lives in the same database, by every replay check. It logs one line when a fault starts and one
/// when it ends; the line names the error's type and database code only, never its text (which
/// could echo a path or an arbitrary error's contents).
package final class StorageHealth: Sendable {
    private struct State {
        var faultStarted: Double?
        var failures = 0
    }

    private let state = Protected(State())
    private let log: LogSink
    private let onFailure: @Sendable () -> Void
    private let now: @Sendable () -> Double

    /// - Parameter onFailure: called once per failed call (a metrics counter).
    package init(log: LogSink = .discard, onFailure: @escaping @Sendable () -> Void = {},
                now: @escaping @Sendable () -> Double = Clocks.monotonicSeconds) {
        self.log = log
        self.onFailure = onFailure
        self.now = now
    }

    /// False from a failed store call until the next one that succeeds.
    package var isAvailable: Bool { state.withLock { $0.faultStarted == nil } }

    /// Store calls that failed, since start.
    package var failures: Int { state.withLock { $0.failures } }

    /// A store call succeeded: ends a fault.
    package func recordSuccess() {
        // The common case reads one flag under the lock and logs nothing.
        let started = state.withLock { state -> Double? in
            defer { state.faultStarted = nil }
            return state.faultStarted
        }
        guard let started else { return }
        log(.info, "storage_recovered", ["fault_seconds": .double((max(0, now() - started) * 1000).rounded() / 1000)])
    }

    /// A store call failed: starts a fault unless one is already running.
    package func recordFailure(_ error: any Error) {
        let time = now()
        let starts = state.withLock { state -> Bool in
            state.failures += 1
            guard state.faultStarted == nil else { return false }
            state.faultStarted = time
            return true
        }
        onFailure()
        if starts { log(LogRecord(.error, "storage_unavailable", Self.fields(error))) }
    }

    /// The error's type, and the database's code where it has one: no message text.
    static func fields(_ error: any Error) -> [LogField] {
        switch error {
        case let error as SQLiteError: return [LogField("error_type", "sqlite"), LogField("sqlite_code", .integer(error.code))]
        case let error as PGError:
            return [LogField("error_type", "postgres"), LogField("sqlstate", "\(error.sqlState.isEmpty ? "-" : error.sqlState)"),
                    LogField("connection_lost", .bool(error.connectionLost))]
        default: return [LogField("error_type", "\(String(describing: type(of: error)))")]
        }
    }

    /// Runs one store call and records its outcome.
    package func record<T>(_ body: () throws -> T) rethrows -> T {
        do {
            let value = try body()
            recordSuccess()
            return value
        } catch {
            recordFailure(error)
            throw error
        }
    }
}
