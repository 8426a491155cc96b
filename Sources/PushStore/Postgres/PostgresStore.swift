import Foundation
import PushProtocol
import PushSupport

/// The shared store: PostgreSQL through libpq, for several nodes on one database.
///
/// Every write runs in its own transaction (`READ COMMITTED`, `synchronous_commit` as the server
/// has it — on by default) and returns only after `COMMIT` returned, so an answer sent afterwards
/// is never ahead of the data. A transaction whose connection is lost *before* `COMMIT` was sent
/// is run again once on a new connection (the server rolled it back); a loss *during* `COMMIT`
/// throws, because its outcome is unknown: the request is not acknowledged, and its client retries
/// (a Notify retry is answered from the idempotency record).
///
/// Outbox claims carry the node id and a lease (`claimLease`, default 30 s) that the sender renews
/// while a send is in flight; rows are claimed with `FOR UPDATE SKIP LOCKED`, so two nodes never
/// claim the same row, and a row held by a live node is never due elsewhere. At open, the claims
/// this node id held before a restart are released at once.
package final class PostgresStore: PushStore {
    package struct Configuration: Sendable {
        /// How long a claimed delivery stays claimed unless renewed (a crashed node's claims expire).
        package var claimLease: TimeInterval
        /// Connections open at most.
        package var poolSize: Int
        /// Listen for new outbox rows of other nodes (`LISTEN pushnode_outbox`).
        package var listens: Bool
        /// How long a notification's status is kept (`storage.outcomeRetention`).
        package var outcomeRetention: TimeInterval

        package init(claimLease: TimeInterval = 30, poolSize: Int = 8, listens: Bool = true,
                     outcomeRetention: TimeInterval = StoreRetention.defaultOutcomeRetention) {
            self.claimLease = claimLease
            self.poolSize = poolSize
            self.listens = listens
            self.outcomeRetention = outcomeRetention
        }
    }

    /// The channel `enqueue` notifies and the listener waits on.
    static let outboxChannel = "pushnode_outbox"

    package let configuration: Configuration
    /// This node's id, written into its claims.
    package let nodeID: String
    /// The URL or conninfo the store connects with (the pool and the listener). Holds the password.
    let conninfo: String
    let pool: PGPool
    let hooks = EnqueueHooks()
    private let stats = Protected(StoreStatistics())
    private let listener = Protected<PGListener?>(nil)

    /// Connects, applies pending migrations (under the advisory lock) and releases this node's old claims.
    /// - Parameter url: `postgres://…` or a libpq conninfo string. It may hold a password: never logged.
    package init(url: String, nodeID: String, configuration: Configuration = .init()) throws {
        self.configuration = configuration
        self.nodeID = nodeID
        conninfo = url
        pool = .postgres(conninfo: url, size: configuration.poolSize)
        try pool.withConnection { connection in
            try PostgresMigrations.apply(on: connection)
            // Claims of this node's previous process are void: due again at once, in queue order.
            try connection.run("""
                UPDATE outbox SET state = 0, claimed_by = NULL, next_attempt_at = created_at
                WHERE state = 1 AND claimed_by = $1
                """, [.text(nodeID)])
        }
    }

    deinit { close() }

    package func close() {
        // Not drained: the listener holds no work, and its thread ends by itself within a second.
        listener.withLock { listener in
            listener?.stop()
            listener = nil
        }
        pool.close()
        hooks.removeAll()
    }

    package func statistics() -> StoreStatistics { stats.withLock { $0 } }

    /// A committed update of the one `write_probe` row: a new row version and its WAL record, so a
    /// real write. The server's faults are mostly the connection or its own disk, where every commit
    /// fails alike; nodes sharing the database update the same row, and only while their writes fail.
    package func probeWrite() throws {
        try write { db in
            _ = try db.run("""
                INSERT INTO write_probe (id, writes) VALUES (1, 1)
                ON CONFLICT (id) DO UPDATE SET writes = write_probe.writes + 1
                """)
        }
    }

    package func onEnqueue(_ handler: @escaping @Sendable () -> Void) {
        hooks.add(handler)
        guard configuration.listens else { return }
        listener.withLock { listener in
            guard listener == nil else { return }
            let hooks = self.hooks
            let started = PGListener(conninfo: conninfo, channel: Self.outboxChannel) { hooks.fire() }
            started.start()
            listener = started
        }
    }

    /// Runs `work` in one transaction and returns after its `COMMIT` returned.
    @discardableResult
    func write<T>(_ work: (PGConnection) throws -> T) throws -> T {
        let started = DispatchTime.now().uptimeNanoseconds
        let result = try retrying(onlyBeforeCommit: true) { connection, commitSent in
            connection.begin()  // sent with the first statement
            let value: T
            do { value = try work(connection) } catch {
                if connection.isHealthy { _ = try? connection.execute("ROLLBACK") }
                throw error
            }
            commitSent = true
            try connection.execute("COMMIT")
            return value
        }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        stats.withLock { $0.countBatch(of: 1, seconds: elapsed) }
        return result
    }

    /// Runs `work` outside a transaction (each statement sees the latest commits).
    func read<T>(_ work: (PGConnection) throws -> T) throws -> T {
        try retrying(onlyBeforeCommit: false) { connection, _ in try work(connection) }
    }

    /// Runs `body` once more on a fresh connection after a lost connection (never after one lost
    /// while `COMMIT` was in flight) or a serialization conflict.
    private func retrying<T>(onlyBeforeCommit: Bool, _ body: (PGConnection, inout Bool) throws -> T) throws -> T {
        var attempt = 0
        while true {
            attempt += 1
            var commitSent = false
            do {
                return try pool.withConnection { try body($0, &commitSent) }
            } catch let error as PGError where attempt < 3 && !commitSent
                        && (error.connectionLost || error.isRetryableConflict) {
                continue
            }
        }
    }
}
