import Foundation
import PushSupport

/// The `PushStore` in memory, for tests and single-process experiments: nothing survives the
/// process. The model is Hummingbird's `MemoryPersistDriver` beside its database drivers — the same
/// protocol, the same answers, no file and no server.
///
/// It keeps the semantics of `SQLiteStore` and `PostgresStore`, and the contract suite
/// (Tests/NodeTests/PushStore) runs unchanged on all three: millisecond times, the duplicate
/// window, refcounted notifications, claims with leases, renewals, attempts, expiry, orphans, purge,
/// enqueue hooks, and the fan-out rule of `FanOut`/`DeliveryRouting` applied inside the write.
///
/// - One lock (the project's `Protected`) around the rows: every call runs under it, so each write
///   is atomic and isolated as a transaction is. Writes check before their first change, so one that
///   throws (a subscription limit) leaves nothing behind, as a rolled-back transaction would.
/// - Like the SQL stores it never reads a clock for what it stores or compares: every time comes in
///   as an argument (`now:`, `at:`, a record's dates). The injected `clock` only times the writes
///   counted in `statistics()`; pass the test clock of a service or engine to make those exact.
/// - One process, like SQLite: claims carry no node id, and every claimed row is this store's.
///
/// Construct it with `MemoryStore()` (or `MemoryStore(claimLease: 30, clock: { now.current })`);
/// `restarted()` stands for a restart of the process over the same rows.
package final class MemoryStore: PushStore {
    package struct Configuration: Sendable {
        /// How long a claimed delivery stays claimed unless renewed.
        package var claimLease: TimeInterval
        /// How long a notification's status is kept (`storage.outcomeRetention`).
        package var outcomeRetention: TimeInterval

        package init(claimLease: TimeInterval = 60, outcomeRetention: TimeInterval = StoreRetention.defaultOutcomeRetention) {
            self.claimLease = claimLease
            self.outcomeRetention = outcomeRetention
        }
    }

    private struct State {
        var tables: MemoryTables
        var closed = false
    }

    package let configuration: Configuration
    let hooks = EnqueueHooks()
    private let clock: @Sendable () -> Date
    private let state: Protected<State>
    /// Apart from the rows, as in `PostgresStore`: counting never waits for a write.
    private let stats = Protected(StoreStatistics())

    /// An empty store.
    /// - Parameter clock: read before and after each write to time it for `statistics()`, never
    ///   under the store's lock; the wall clock unless given.
    package convenience init(claimLease: TimeInterval = 60, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.init(configuration: Configuration(claimLease: claimLease), clock: clock)
    }

    package convenience init(configuration: Configuration, clock: @escaping @Sendable () -> Date = { Date() }) {
        self.init(tables: MemoryTables(), configuration: configuration, clock: clock)
    }

    private init(tables: MemoryTables, configuration: Configuration, clock: @escaping @Sendable () -> Date) {
        self.configuration = configuration
        self.clock = clock
        state = Protected(State(tables: tables))
    }

    /// Closes this store and returns the one a restarted process would open if memory survived: the
    /// same rows, its claims due again at once (as SQLite's open, and PostgreSQL's for the same node,
    /// release them), no hooks, counters from zero.
    package func restarted() -> MemoryStore {
        var tables = state.withLock { state -> MemoryTables in
            state.closed = true
            defer { state.tables = MemoryTables() }
            return state.tables
        }
        tables.releaseClaims()
        hooks.removeAll()
        return MemoryStore(tables: tables, configuration: configuration, clock: clock)
    }

    /// Drops every row and the enqueue handlers; later calls throw `StoreError.closed`.
    package func close() {
        let dropped = state.withLock { state -> MemoryTables in
            state.closed = true
            defer { state.tables = MemoryTables() }
            return state.tables
        }
        _ = dropped  // freed here, outside the lock
        hooks.removeAll()
    }

    package func statistics() -> StoreStatistics { stats.withLock { $0 } }

    /// Memory has no room to run out of: an empty write, which fails only once the store is closed.
    package func probeWrite() throws { try write { _ in } }

    /// Called on the enqueuing thread right after an `enqueue` that queued deliveries.
    package func onEnqueue(_ handler: @escaping @Sendable () -> Void) {
        hooks.add(handler)
    }

    /// Runs `work` on the rows as one transaction, counted in `statistics()` when it returns.
    @discardableResult
    func write<T>(_ work: (inout MemoryTables) throws -> T) throws -> T {
        let started = clock()
        let result = try state.withLock { state -> T in
            guard !state.closed else { throw StoreError.closed }
            return try work(&state.tables)
        }
        let elapsed = max(0, clock().timeIntervalSince(started))
        stats.withLock { $0.countBatch(of: 1, seconds: elapsed) }
        return result
    }

    /// Runs `work` on the rows as they are (it sees every write that returned).
    func read<T>(_ work: (MemoryTables) throws -> T) throws -> T {
        try state.withLock { state -> T in
            guard !state.closed else { throw StoreError.closed }
            return try work(state.tables)
        }
    }
}
