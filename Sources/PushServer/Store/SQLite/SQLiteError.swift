import CSQLite

/// A failed SQLite call: the result code and SQLite's message (which never contains bound values).
public struct SQLiteError: Error, Equatable, Sendable, CustomStringConvertible {
    public var code: Int32
    public var message: String

    public init(code: Int32, message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "sqlite error \(code): \(message)" }

    /// The primary result code (extended codes carry it in the low byte).
    public var primaryCode: Int32 { code & 0xff }
    public var isConstraintViolation: Bool { primaryCode == SQLITE_CONSTRAINT }
}
