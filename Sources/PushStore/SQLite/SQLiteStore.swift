import Foundation
import PushProtocol

/// The embedded store: one SQLite file in WAL mode, one group-committing writer thread, and a small
/// pool of read connections.
///
/// Durability: `synchronous=NORMAL` in WAL mode, fixed here and not configurable. A commit returns
/// once its WAL frames are written to the file (in the OS page cache), so a `kill -9` of the process
/// after a 200 loses nothing: the next open replays the WAL. What NORMAL gives up is durability
/// against power loss or a kernel crash, where the last commits before the fsync at the next
/// checkpoint may vanish; `FULL` would fsync the WAL on every commit (group commit would keep
/// that to one fsync per batch). The contract (PROTOCOL §4: "a crash after the answer loses
/// nothing") is about the process, so NORMAL is the choice.
///
/// One process per file: at open, deliveries a previous process had claimed are due again at once.
package final class SQLiteStore: PushStore {
    package struct Configuration: Sendable {
        /// How long a claimed delivery stays claimed before it is due again (a crashed send).
        package var claimLease: TimeInterval
        /// Most write requests in one commit.
        package var maxBatch: Int
        /// Read connections kept open when idle.
        package var maxIdleReaders: Int
        /// How long a notification's status is kept (`storage.outcomeRetention`).
        package var outcomeRetention: TimeInterval

        package init(claimLease: TimeInterval = 60, maxBatch: Int = 1024, maxIdleReaders: Int = 8,
                     outcomeRetention: TimeInterval = StoreRetention.defaultOutcomeRetention) {
            self.claimLease = claimLease
            self.maxBatch = maxBatch
            self.maxIdleReaders = maxIdleReaders
            self.outcomeRetention = outcomeRetention
        }
    }

    package let configuration: Configuration
    package let writer: GroupCommitWriter
    let hooks = EnqueueHooks()
    private let readers: ReaderPool

    /// Opens (creating when missing) the database at `path` and applies pending migrations.
    package convenience init(path: String) throws {
        try self.init(path: path, configuration: Configuration())
    }

    package init(path: String, configuration: Configuration) throws {
        self.configuration = configuration
        let connection = try SQLiteConnection(path: path)
        // busy_timeout first: switching to WAL takes a lock that another connection closing the file
        // (its last-close checkpoint) may still hold for a moment.
        try connection.execute("""
            PRAGMA busy_timeout = 5000;
            PRAGMA journal_mode = WAL;
            PRAGMA synchronous = NORMAL;
            PRAGMA temp_store = MEMORY;
            PRAGMA wal_autocheckpoint = \(Self.checkpointPages);
            """)
        try SQLiteMigrations.apply(on: connection)
        try Self.releaseClaims(on: connection)
        writer = GroupCommitWriter(connection: connection, maxBatch: configuration.maxBatch)
        writer.start()
        readers = .readers(path: path, maxIdle: configuration.maxIdleReaders)
    }

    deinit { close() }

    /// WAL frames between automatic checkpoints (SQLite's default is 1,000). A checkpoint copies
    /// each page once however often the WAL holds it, and syncs the file: with Notify rewriting
    /// the same few leaf pages commit after commit, a longer WAL copies and syncs less per commit
    /// (checkpoints were 15 % of the writer's CPU at fan-out 2 with the default). 32 MiB of WAL at most
    /// between checkpoints, which the drain folds into the database file.
    static let checkpointPages = 8192

    /// Commits what the writer holds (however long that takes: an accepted write is never dropped),
    /// then closes every connection.
    package func close() {
        writer.drain(timeout: .infinity)
        readers.close()
        hooks.removeAll()
    }

    package func statistics() -> StoreStatistics { writer.statistics }

    /// Bytes of fresh padding each `probeWrite` commits: 32 pages of 4 KiB, more than a lone
    /// Notify's commit takes (12–22 WAL frames, measured with the shipped schema, 2,816-byte payload).
    static let probePadding = 128 * 1024

    /// Rewrites the one `write_probe` row with `probePadding` new random bytes, in a commit of its own.
    ///
    /// What a full disk fails, in WAL mode, is the commit: a transaction's pages are appended to the
    /// WAL as it commits, and reads (or a write that is rolled back, which never reaches the WAL) go
    /// on working. A commit fails only when its frames need room the file system no longer has, and a
    /// small one fits where a Notify does not (a failed commit leaves the WAL grown by the frames it
    /// did write): hence the padding, random so that each probe really rewrites every page (SQLite
    /// skips pages an update leaves unchanged). Committed alone, so that its size never fails a
    /// batch of requests' writes.
    package func probeWrite() throws {
        _ = try writer.perform(alone: true) { db in
            try db.run("""
                INSERT INTO write_probe (id, writes, padding) VALUES (1, 1, randomblob(?))
                ON CONFLICT (id) DO UPDATE SET writes = writes + 1, padding = excluded.padding
                """, [.integer(Int64(Self.probePadding))])
        }
    }

    /// Runs `work` in the next group commit.
    @discardableResult
    package func write<T: Sendable>(_ work: @escaping @Sendable (SQLiteConnection) throws -> T) throws -> T {
        try writer.perform(work)
    }

    /// Runs `work` on a read connection.
    package func read<T>(_ work: (SQLiteConnection) throws -> T) throws -> T {
        try readers.withConnection(work)
    }

    /// Claims of a previous process are void: make them due at once (stamped with their queueing
    /// time, which is in the past whatever the clock says, and keeps them in queue order).
    private static func releaseClaims(on connection: SQLiteConnection) throws {
        try connection.run("UPDATE outbox SET state = 0, next_attempt_at = created_at WHERE state = 1")
    }
}

extension Date {
    /// Milliseconds since 1970, as the store keeps times.
    var unixMilliseconds: Int64 { Int64((timeIntervalSince1970 * 1000).rounded(.down)) }

    package init(unixMilliseconds: Int64) { self.init(timeIntervalSince1970: Double(unixMilliseconds) / 1000) }
}
