import CSQLite

/// Owns one prepared `sqlite3_stmt`; finalized in `deinit`. Belongs to one connection and is used by
/// that connection's current thread only.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    init(sql: String, connection: SQLiteConnection, database: OpaquePointer) throws {
        var statement: OpaquePointer?
        try connection.check(sqlite3_prepare_v3(database, sql, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil))
        guard let statement else { throw SQLiteError(code: SQLITE_MISUSE, message: "empty statement") }
        self.handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Binds `values` to parameters 1…n.
    func bind(_ values: [SQLiteValue]) throws {
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            switch value {
            case .integer(let number):
                try connection.check(sqlite3_bind_int64(handle, index, number))
            case .text(let text):
                var text = text
                let rc = text.withUTF8 { utf8 -> Int32 in
                    // An empty buffer may have no base address, which SQLite would bind as NULL.
                    guard let base = utf8.baseAddress, utf8.count > 0 else {
                        return pushnode_sqlite3_bind_text_transient(handle, index, "", 0)
                    }
                    return base.withMemoryRebound(to: CChar.self, capacity: utf8.count) {
                        pushnode_sqlite3_bind_text_transient(handle, index, $0, Int32(utf8.count))
                    }
                }
                try connection.check(rc)
            case .blob(let bytes):
                let rc = bytes.withUnsafeBytes { raw -> Int32 in
                    guard let base = raw.baseAddress, raw.count > 0 else { return sqlite3_bind_zeroblob(handle, index, 0) }
                    return pushnode_sqlite3_bind_blob_transient(handle, index, base, Int32(raw.count))
                }
                try connection.check(rc)
            case .null:
                try connection.check(sqlite3_bind_null(handle, index))
            }
        }
    }

    /// Advances; true when a row is ready.
    func step() throws -> Bool {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default:
            try connection.check(rc)
            return false
        }
    }

    /// Makes the statement reusable and drops its bindings (and the copies of bound values).
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds, runs to completion and resets: for one statement run many times in a loop.
    func execute(_ values: [SQLiteValue]) throws {
        defer { reset() }
        try bind(values)
        while try step() {}
    }

    var row: SQLiteRow { SQLiteRow(handle: handle) }
}

/// Column access to the current row of a statement; valid until the next step or reset.
package struct SQLiteRow: StoreRow {
    fileprivate let handle: OpaquePointer

    package func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    package func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    package func text(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    func blob(_ column: Int32) -> [UInt8] {
        let count = Int(sqlite3_column_bytes(handle, column))
        guard count > 0, let pointer = sqlite3_column_blob(handle, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    func optionalBlob(_ column: Int32) -> [UInt8]? { isNull(column) ? nil : blob(column) }

    package func bytes(_ column: Int32) -> [UInt8] { blob(column) }

    package func bool(_ column: Int32) -> Bool { int64(column) != 0 }
}
