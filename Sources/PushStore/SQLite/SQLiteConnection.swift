import CSQLite
import CSQLiteWALBuffer

/// Owns one `sqlite3` connection, its cached prepared statements, and the `check(rc)` that turns
/// result codes into `SQLiteError`s.
///
/// `@unchecked Sendable`: a connection moves between threads but is used by one thread at a time —
/// the writer thread owns the write connection; a reader checks a connection out of the pool for
/// the length of one read. It is opened with `SQLITE_OPEN_NOMUTEX` for that reason.
package final class SQLiteConnection: @unchecked Sendable {
    /// Internal, not private: `SQLiteBackup` hands it to `sqlite3_backup_init`.
    let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]

    /// A read-write connection writes its WAL through `CSQLiteWALBuffer`'s VFS: one `write(2)` per
    /// commit rather than two per page (`wal_buffer.c` says why that keeps a commit durable).
    init(path: String, readOnly: Bool = false) throws {
        var db: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        if !readOnly {
            let registered = pushnode_wal_buffer_register()
            guard registered == SQLITE_OK else { throw SQLiteError(code: registered, message: "cannot register the WAL buffer VFS") }
        }
        let rc = sqlite3_open_v2(path, &db, flags, readOnly ? nil : PUSHNODE_WAL_BUFFER_VFS)
        guard rc == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open"
            if let db { sqlite3_close_v2(db) }
            throw SQLiteError(code: rc, message: message)
        }
        handle = db
        sqlite3_extended_result_codes(db, 1)
    }

    deinit {
        statements.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Throws unless `rc` is a success code.
    func check(_ rc: Int32) throws {
        switch rc {
        case SQLITE_OK, SQLITE_ROW, SQLITE_DONE: return
        default: throw SQLiteError(code: rc, message: String(cString: sqlite3_errmsg(handle)))
        }
    }

    /// Runs SQL text that may hold several statements and binds nothing (schema, pragmas, BEGIN).
    func execute(_ sql: String) throws {
        try check(sqlite3_exec(handle, sql, nil, nil, nil))
    }

    /// The cached prepared statement for `sql`.
    func statement(_ sql: String) throws -> SQLiteStatement {
        if let cached = statements[sql] { return cached }
        let statement = try SQLiteStatement(sql: sql, connection: self, database: handle)
        statements[sql] = statement
        return statement
    }

    /// Runs a statement that returns no rows; returns the number of rows it changed.
    @discardableResult
    func run(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        while try statement.step() {}
        return Int(sqlite3_changes(handle))
    }

    /// Runs a query and maps every row.
    func query<T>(_ sql: String, _ values: [SQLiteValue] = [], _ map: (SQLiteRow) throws -> T) throws -> [T] {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        var rows: [T] = []
        while try statement.step() { rows.append(try map(statement.row)) }
        return rows
    }

    /// The first row of a query, if any.
    func queryFirst<T>(_ sql: String, _ values: [SQLiteValue] = [], _ map: (SQLiteRow) throws -> T) throws -> T? {
        let statement = try self.statement(sql)
        defer { statement.reset() }
        try statement.bind(values)
        return try statement.step() ? map(statement.row) : nil
    }

    var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// False once SQLite has rolled back the open transaction on its own (I/O errors, SQLITE_FULL).
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }
}
