import CSQLite
import Foundation

/// A copy of a live SQLite database with SQLite's online backup API
/// (`sqlite3_backup_init`/`step`/`finish`), taken while the node goes on writing: `pushnode backup`.
///
/// - SeeAlso: https://sqlite.org/backup.html
package enum SQLiteBackup {
    package struct Result: Sendable, Equatable {
        package var pages: Int
        package var bytes: Int
    }

    /// Copies the database at `source` into the new file `destination` (refused if it exists).
    ///
    /// All pages are copied in one step, inside one read transaction: in WAL mode the node's
    /// writer is not held up, and the copy is the database as of one commit. A copy in several
    /// steps would restart whenever the node commits between two of them, and a busy node would
    /// keep it from ever finishing. The pages go to `<destination>.partial`, which is checked
    /// (`PRAGMA quick_check`) and only then renamed: a failed backup leaves nothing that looks
    /// like one.
    package static func copy(from source: String, to destination: String, timeout: TimeInterval = 30) throws -> Result {
        guard FileManager.default.fileExists(atPath: source) else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "no database at \(source)")
        }
        guard !FileManager.default.fileExists(atPath: destination) else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "\(destination) exists; a backup never replaces a file")
        }
        let partial = destination + ".partial"
        try? FileManager.default.removeItem(atPath: partial)
        defer { try? FileManager.default.removeItem(atPath: partial) }

        let live = try SQLiteConnection(path: source, readOnly: true)
        try live.execute("PRAGMA busy_timeout = 5000")
        let result: Result
        do {
            let copy = try SQLiteConnection(path: partial)
            result = try run(from: live, to: copy, deadline: Date(timeIntervalSinceNow: timeout))
            let check = try copy.queryFirst("PRAGMA quick_check") { $0.text(0) }
            guard check == "ok" else { throw SQLiteError(code: SQLITE_CORRUPT, message: "the copy fails quick_check: \(check ?? "")") }
        }
        guard rename(partial, destination) == 0 else {
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot rename \(partial): \(String(cString: strerror(errno)))")
        }
        return result
    }

    /// One `sqlite3_backup` from `live` into `copy`, retried while the source is busy or locked.
    private static func run(from live: SQLiteConnection, to copy: SQLiteConnection, deadline: Date) throws -> Result {
        guard let backup = sqlite3_backup_init(copy.handle, "main", live.handle, "main") else {
            try copy.check(sqlite3_errcode(copy.handle))
            throw SQLiteError(code: SQLITE_ERROR, message: "sqlite3_backup_init failed")
        }
        var rc: Int32
        repeat {
            rc = sqlite3_backup_step(backup, -1)
            if rc == SQLITE_BUSY || rc == SQLITE_LOCKED {
                guard Date() < deadline else { break }
                usleep(50_000)
            }
        } while rc == SQLITE_BUSY || rc == SQLITE_LOCKED
        let pages = Int(sqlite3_backup_pagecount(backup))
        let finish = sqlite3_backup_finish(backup)
        guard rc == SQLITE_DONE else { throw SQLiteError(code: rc, message: String(cString: sqlite3_errstr(rc))) }
        try copy.check(finish)
        let pageSize = try copy.queryFirst("PRAGMA page_size") { $0.int(0) } ?? 0
        return Result(pages: pages, bytes: pages * Int(pageSize))
    }
}
