import PushSupport

/// Whether the node's storage works, as the store calls find it (the rule is `StorageFaults`: a
/// failed read until a read succeeds, a failed write until a write succeeds). `/readyz` answers 503
/// `storage_unavailable` while a fault lasts (PROTOCOL §3.2 `storage.unavailable`, §3.3).
///
/// One instance per node, fed by every store call the service makes, by its readiness probes and,
/// when the replay window lives in the same database, by every replay check. It logs one line when
/// storage becomes unavailable and one when it is available again; the line names the error's type
/// and database code only, never its text (which could echo a path or an arbitrary error's contents).
package final class StorageHealth: Sendable {
    private struct State {
        var faults = StorageFaults()
        var failures = 0
    }

    private let state = Protected(State())
    private let log: LogSink
    private let onFailure: @Sendable () -> Void
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - onFailure: called once per failed call (a metrics counter).
    ///   - now: monotonic seconds, for the fault's duration in the log.
    package init(log: LogSink = .discard, onFailure: @escaping @Sendable () -> Void = {},
                now: @escaping @Sendable () -> Double = Clocks.monotonicSeconds) {
        self.log = log
        self.onFailure = onFailure
        self.now = now
    }

    /// False while a fault of either kind lasts.
    package var isAvailable: Bool { state.withLock { $0.faults.isAvailable } }

    /// The kinds of call with a running fault (what `PushService.probeStorage` tries).
    package var failing: Set<StorageAccess> { state.withLock { $0.faults.failing } }

    /// Store calls that failed, since start.
    package var failures: Int { state.withLock { $0.failures } }

    /// A store call of kind `access` succeeded: ends a fault of that kind.
    package func recordSuccess(_ access: StorageAccess) {
        // The common case reads the faults under the lock and logs nothing.
        let change = state.withLock { state -> StorageFaults.Change? in
            state.faults.isAvailable ? nil : state.faults.record(access, succeeded: true, at: now())
        }
        guard case .recovered(let seconds)? = change else { return }
        log(.info, "storage_recovered", ["fault_seconds": .double((seconds * 1000).rounded() / 1000)])
    }

    /// A store call of kind `access` failed: starts a fault of that kind unless one is running.
    package func recordFailure(_ access: StorageAccess, _ error: any Error) {
        let time = now()
        let change = state.withLock { state -> StorageFaults.Change? in
            state.failures += 1
            return state.faults.record(access, succeeded: false, at: time)
        }
        onFailure()
        if change == .unavailable {
            log(LogRecord(.error, "storage_unavailable", [LogField("access", .string(access.rawValue))] + Self.fields(error)))
        }
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

    /// Runs one store call of kind `access` and records its outcome.
    package func record<T>(_ access: StorageAccess, _ body: () throws -> T) rethrows -> T {
        do {
            let value = try body()
            recordSuccess(access)
            return value
        } catch {
            recordFailure(access, error)
            throw error
        }
    }
}
