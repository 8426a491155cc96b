import Dispatch
import Foundation
import PushSupport

/// The single writer of a SQLite store, committing concurrent requests together.
///
/// Request threads call `perform`, which queues the work and blocks. The writer thread takes every
/// queued job (up to `maxBatch`), runs them in one `BEGIN IMMEDIATE … COMMIT`, each inside its own
/// `SAVEPOINT` so a job that throws is rolled back alone and the others still commit, then wakes each
/// caller with its own result. Under load the batches grow by themselves: while one commit runs, the
/// next batch queues up. A caller is woken only after the commit that holds its work returned, so
/// an answer sent afterwards is never ahead of the data. A job queued `alone` (the write probe) is
/// a batch of its own.
///
/// A `LongRunning` part that its store starts and drains: `stop()` refuses new jobs,
/// `drain(timeout:)` waits until every queued job is committed and the thread ended.
///
/// `@unchecked Sendable`: `pending`, `started`, `closed` and `statistics` are guarded by `condition`;
/// the connection is touched by the writer thread only.
package final class GroupCommitWriter: LongRunning, @unchecked Sendable {
    package let name = "sqlite-writer"
    private let connection: SQLiteConnection
    private let maxBatch: Int
    private let condition = NSCondition()
    private var pending: [any WriteJob] = []
    private var started = false
    private var closed = false
    private var stats = StoreStatistics()
    /// Opened by the thread's last act.
    private let ended = Latch()

    init(connection: SQLiteConnection, maxBatch: Int = 1024) {
        self.connection = connection
        self.maxBatch = maxBatch
    }

    /// Starts the writer thread (once).
    package func start() {
        guard condition.withLock({ () -> Bool in
            defer { started = true }
            return !started && !closed
        }) else { return }
        let thread = Thread { [self] in self.run() }
        thread.name = "pushnode.sqlite.writer"
        thread.start()
    }

    /// Runs `work` in the next group commit and returns its result once that commit is durable;
    /// `alone`, in a commit that holds nothing else.
    func perform<T: Sendable>(alone: Bool = false, _ work: @escaping @Sendable (SQLiteConnection) throws -> T) throws -> T {
        let job = Job(work, alone: alone)
        condition.lock()
        guard !closed else {
            condition.unlock()
            throw StoreError.closed
        }
        pending.append(job)
        condition.signal()
        condition.unlock()
        return try job.wait()
    }

    /// Refuses new jobs: later `perform` calls throw `StoreError.closed`. The queued ones still commit.
    package func stop() {
        condition.withLock {
            closed = true
            condition.signal()
        }
    }

    /// Waits until every queued job is committed and the thread ended (its last act folds the WAL
    /// into the database file); true when it did within `timeout`.
    @discardableResult
    package func drain(timeout: Double) -> Bool {
        stop()
        guard condition.withLock({ started }) else { return true }
        return ended.wait(timeout: timeout)
    }

    var statistics: StoreStatistics {
        condition.lock()
        defer { condition.unlock() }
        return stats
    }

    /// Jobs queued and not yet taken by the writer (tests use it to build a batch deterministically).
    var pendingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return pending.count
    }

    // MARK: - The writer thread

    private func run() {
        while let batch = nextBatch() {
            let started = DispatchTime.now().uptimeNanoseconds
            var outcomes: [(job: any WriteJob, error: (any Error)?)] = []
            let commits = commit(batch) { outcomes.append(($0, $1)) }
            let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
            condition.lock()
            stats.countBatch(of: batch.count, commits: commits, seconds: elapsed)
            condition.unlock()
            // Woken only now: every commit of the batch has returned, and the counters include it.
            for outcome in outcomes { outcome.job.finish(overriding: outcome.error) }
        }
        // Closed and drained: fold the WAL into the database file so a stopped node leaves one
        // self-contained file (committed data was already durable in the WAL either way).
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        ended.open()
    }

    /// Waits for work; nil once closed and drained.
    private func nextBatch() -> [any WriteJob]? {
        condition.lock()
        defer { condition.unlock() }
        while pending.isEmpty && !closed { condition.wait() }
        if pending.isEmpty { return nil }
        let limit = min(pending.count, maxBatch)
        let count = pending[0].alone ? 1 : pending.prefix(limit).firstIndex { $0.alone } ?? limit
        let batch = Array(pending.prefix(count))
        pending.removeFirst(count)
        return batch
    }

    /// Runs the jobs in as few transactions as possible and reports each job's fate to `settle`
    /// (nil: its own result stands; an error: it replaces the result). Returns the number of commits.
    private func commit(_ batch: [any WriteJob], settle: (any WriteJob, (any Error)?) -> Void) -> Int {
        var remaining = batch[...]
        var commits = 0
        while !remaining.isEmpty {
            do {
                try connection.execute("BEGIN IMMEDIATE")
            } catch {
                remaining.forEach { settle($0, error) }
                return commits
            }
            var done: [any WriteJob] = []
            var transactionLost = false
            while let job = remaining.popFirst() {
                do {
                    try connection.execute("SAVEPOINT job")
                    let succeeded = job.execute(on: connection)
                    if succeeded {
                        try connection.execute("RELEASE job")
                    } else if connection.isInTransaction {
                        try connection.execute("ROLLBACK TO job; RELEASE job")
                    } else {
                        // SQLite rolled the whole transaction back (I/O error, disk full): the jobs before
                        // this one are lost too; the rest start over in a new transaction.
                        done.forEach { settle($0, StoreError.transactionAborted) }
                        settle(job, nil)
                        done = []
                        transactionLost = true
                        break
                    }
                    done.append(job)
                } catch {
                    try? connection.execute("ROLLBACK")
                    done.forEach { settle($0, error) }
                    settle(job, error)
                    done = []
                    transactionLost = true
                    break
                }
            }
            if transactionLost { continue }
            do {
                try connection.execute("COMMIT")
                commits += 1
                done.forEach { settle($0, nil) }
            } catch {
                try? connection.execute("ROLLBACK")
                done.forEach { settle($0, error) }
            }
        }
        return commits
    }
}

/// A queued write as the writer thread sees it.
private protocol WriteJob: AnyObject, Sendable {
    /// Committed in a transaction of its own.
    var alone: Bool { get }
    /// Runs the work; false when it threw (its error is kept as its result).
    func execute(on connection: SQLiteConnection) -> Bool
    /// Wakes the caller, with `error` instead of the kept result when given.
    func finish(overriding error: (any Error)?)
}

/// One caller's work and its result. `@unchecked Sendable`: `result` is written by the writer thread
/// before `done` is signalled and read by the caller only after waiting on it.
private final class Job<T: Sendable>: WriteJob, @unchecked Sendable {
    private let work: @Sendable (SQLiteConnection) throws -> T
    let alone: Bool
    private var result: Result<T, any Error> = .failure(StoreError.closed)
    private let done = DispatchSemaphore(value: 0)

    init(_ work: @escaping @Sendable (SQLiteConnection) throws -> T, alone: Bool) {
        self.work = work
        self.alone = alone
    }

    func execute(on connection: SQLiteConnection) -> Bool {
        do {
            result = .success(try work(connection))
            return true
        } catch {
            result = .failure(error)
            return false
        }
    }

    func finish(overriding error: (any Error)?) {
        if let error { result = .failure(error) }
        done.signal()
    }

    func wait() throws -> T {
        done.wait()
        return try result.get()
    }
}
