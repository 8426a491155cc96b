import Dispatch
import Foundation
import PushSupport

/// The single writer of a SQLite store, committing concurrent requests together.
///
/// `perform` queues the work and returns its result once the commit that holds it returned. One
/// thread at a time commits (the leader): it takes every queued job (up to `maxBatch`), runs them
/// in one `BEGIN IMMEDIATE … COMMIT`, each inside its own `SAVEPOINT` so a job that throws is
/// rolled back alone and the others still commit, then wakes each caller with its own result. A
/// caller that finds nobody committing leads itself: a lone request commits on its own thread,
/// with no hand-off to another thread and back (two thread switches a request, measured in
/// `PushBench ingest`). When jobs queued behind its batch, it hands the lead to the writer thread,
/// which commits batch after batch until the queue is empty: under load the batches grow by
/// themselves (while one commit runs, the next batch queues up), and no request waits for other
/// requests' commits after its own. A caller is woken only after the commit that holds its work
/// returned, so an answer sent afterwards is never ahead of the data. A job queued `alone` (the
/// write probe) is a batch of its own.
///
/// A `LongRunning` part that its store starts and drains: `stop()` refuses new jobs,
/// `drain(timeout:)` waits until every queued job is committed and the writer thread ended (its
/// last act folds the WAL into the database file).
///
/// `@unchecked Sendable`: `pending`, `leader`, `started`, `closed` and `stats` are guarded by
/// `condition`; the connection is touched only by the leader, and the lead passes under the lock.
package final class GroupCommitWriter: LongRunning, @unchecked Sendable {
    package let name = "sqlite-writer"
    private let connection: SQLiteConnection
    private let maxBatch: Int
    private let condition = NSCondition()
    private var pending: [any WriteJob] = []
    /// Who commits now. Never `.nobody` while jobs are queued.
    private var leader = Leader.nobody
    private var started = false
    private var closed = false
    private var stats = StoreStatistics()
    /// Opened by the writer thread's last act.
    private let ended = Latch()

    private enum Leader {
        case nobody
        /// A caller, on its own thread, committing the batch its job heads.
        case caller
        /// The writer thread, woken to commit what queued behind a caller's batch.
        case writer
    }

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
        guard case .nobody = leader else {
            condition.unlock()
            job.wait()
            return try job.result.get()
        }
        leader = .caller
        var batch = nextBatch()  // the job's own batch: nothing was queued before it
        condition.unlock()
        while true {
            commitAndWake(batch)
            condition.lock()
            defer { condition.unlock() }
            if pending.isEmpty {
                leader = .nobody
                wakeWriterIfClosing()
            } else if started && !closed {
                leader = .writer
                condition.broadcast()
            } else {
                // No writer thread (not started, or draining): the caller commits what is left.
                batch = nextBatch()
                continue
            }
            return try job.result.get()
        }
    }

    /// Refuses new jobs: later `perform` calls throw `StoreError.closed`. The queued ones still commit.
    package func stop() {
        condition.withLock {
            closed = true
            condition.broadcast()
        }
    }

    /// Waits until every queued job is committed and the writer thread ended (its last act folds
    /// the WAL into the database file); true when it did within `timeout`.
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

    /// Jobs queued and not yet taken by a leader (tests use it to build a batch deterministically).
    var pendingCount: Int {
        condition.lock()
        defer { condition.unlock() }
        return pending.count
    }

    // MARK: - Committing

    /// The writer thread: leads whenever a caller hands it the lead, until closed with nothing
    /// left to commit and nobody committing.
    private func run() {
        while true {
            condition.lock()
            while !(leader == .writer || (closed && leader == .nobody)) { condition.wait() }
            if leader != .writer {
                condition.unlock()
                break
            }
            guard !pending.isEmpty else {
                leader = .nobody
                condition.unlock()
                continue
            }
            let batch = nextBatch()
            condition.unlock()
            commitAndWake(batch)
        }
        // Closed and drained: fold the WAL into the database file so a stopped node leaves one
        // self-contained file (committed data was already durable in the WAL either way).
        try? connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
        ended.open()
    }

    /// Wakes the writer thread to end, when it is closing and nobody leads any more: the only
    /// change of `leader` to `.nobody` it waits for. Not otherwise: the writer thread sleeps
    /// through the lone writes its callers commit themselves (a wake-up per Notify cost a futex
    /// wake and two thread switches, about 18 µs of CPU at fan-out 2). Called under the lock.
    private func wakeWriterIfClosing() {
        if closed { condition.broadcast() }
    }

    /// The queued jobs up to `maxBatch`, or up to the next one that must commit alone (or that one).
    /// Called under the lock, with jobs queued.
    private func nextBatch() -> [any WriteJob] {
        let limit = min(pending.count, maxBatch)
        let count = pending[0].alone ? 1 : pending[1..<limit].firstIndex { $0.alone } ?? limit
        let batch = Array(pending.prefix(count))
        pending.removeFirst(count)
        return batch
    }

    /// Commits `batch`, counts it, and wakes each of its callers with its own result.
    private func commitAndWake(_ batch: [any WriteJob]) {
        let started = DispatchTime.now().uptimeNanoseconds
        var outcomes: [(job: any WriteJob, error: (any Error)?)] = []
        let commits = commit(batch) { outcomes.append(($0, $1)) }
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
        condition.withLock { stats.countBatch(of: batch.count, commits: commits, seconds: elapsed) }
        // Woken only now: every commit of the batch has returned, and the counters include it.
        for outcome in outcomes { outcome.job.finish(overriding: outcome.error) }
    }

    /// Runs the jobs in as few transactions as possible and reports each job's fate to `settle`
    /// (nil: its own result stands; an error: it replaces the result). Returns the number of commits.
    /// The transaction statements are prepared once (`run`), not parsed per job; a transaction of one
    /// job needs no savepoint, since rolling the transaction back rolls back that job alone.
    private func commit(_ batch: [any WriteJob], settle: (any WriteJob, (any Error)?) -> Void) -> Int {
        var remaining = batch[...]
        var commits = 0
        while !remaining.isEmpty {
            do {
                try connection.run("BEGIN IMMEDIATE")
            } catch {
                remaining.forEach { settle($0, error) }
                return commits
            }
            let savepoints = remaining.count > 1
            var done: [any WriteJob] = []
            var transactionLost = false
            while let job = remaining.popFirst() {
                do {
                    if savepoints { try connection.run("SAVEPOINT job") }
                    let succeeded = job.execute(on: connection)
                    if succeeded {
                        if savepoints { try connection.run("RELEASE job") }
                    } else if connection.isInTransaction && savepoints {
                        try connection.run("ROLLBACK TO job")
                        try connection.run("RELEASE job")
                    } else {
                        // Alone in its transaction, or SQLite rolled the whole transaction back (I/O
                        // error, disk full): the jobs before this one are lost too; the rest start over
                        // in a new transaction.
                        if connection.isInTransaction { try connection.run("ROLLBACK") }
                        done.forEach { settle($0, StoreError.transactionAborted) }
                        settle(job, nil)
                        done = []
                        transactionLost = true
                        break
                    }
                    done.append(job)
                } catch {
                    _ = try? connection.run("ROLLBACK")
                    done.forEach { settle($0, error) }
                    settle(job, error)
                    done = []
                    transactionLost = true
                    break
                }
            }
            if transactionLost { continue }
            do {
                try connection.run("COMMIT")
                commits += 1
                done.forEach { settle($0, nil) }
            } catch {
                _ = try? connection.run("ROLLBACK")
                done.forEach { settle($0, error) }
            }
        }
        return commits
    }
}

/// A queued write as the leader sees it.
private protocol WriteJob: AnyObject, Sendable {
    /// Committed in a transaction of its own.
    var alone: Bool { get }
    /// Runs the work; false when it threw (its error is kept as its result).
    func execute(on connection: SQLiteConnection) -> Bool
    /// Wakes the caller, with `error` instead of the kept result when given.
    func finish(overriding error: (any Error)?)
}

/// One caller's work and its result. `@unchecked Sendable`: `result` is written by the leader
/// before `done` is signalled and read by the caller only after waiting on it (or by the caller
/// itself, when it led the batch that ran its work).
private final class Job<T: Sendable>: WriteJob, @unchecked Sendable {
    private let work: @Sendable (SQLiteConnection) throws -> T
    let alone: Bool
    private(set) var result: Result<T, any Error> = .failure(StoreError.closed)
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

    func wait() { done.wait() }
}
