import CSQLite

/// A failed SQLite call: the result code and SQLite's message (which never contains bound values).
package struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    package var code: Int32
    package var message: String

    package var description: String { "sqlite error \(code): \(message)" }

    /// The primary result code (extended codes carry it in the low byte).
    package var primaryCode: Int32 { code & 0xff }
    package var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }
}
