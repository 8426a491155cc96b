import CPostgres
import Foundation

/// Owns one libpq connection, its prepared statements, and the `check` that turns a result into a
/// `PGError`.
///
/// `@unchecked Sendable`: a connection moves between threads but is used by one thread at a time
/// (a pool checks it out for one transaction or read).
package final class PGConnection: @unchecked Sendable {
    private let handle: OpaquePointer
    /// Statement names by SQL text; each is prepared once per connection, on first use.
    private var prepared: [String: String] = [:]

    /// Connects with a `postgres://` URL or a `key=value` conninfo string.
    init(conninfo: String) throws {
        guard let connection = PQconnectdb(conninfo) else {
            throw PGError(message: "out of memory", connectionLost: true)
        }
        guard PQstatus(connection) == CONNECTION_OK else {
            let message = Self.firstLine(PQerrorMessage(connection))
            PQfinish(connection)
            throw PGError(message: message, connectionLost: true)
        }
        handle = connection
        pushnode_pq_silence_notices(connection)
    }

    deinit { PQfinish(handle) }

    /// False once the server closed the connection or the network failed.
    var isHealthy: Bool { PQstatus(handle) == CONNECTION_OK }

    /// Whether a transaction is open (or failed and not yet rolled back).
    var isInTransaction: Bool {
        let status = PQtransactionStatus(handle)
        return status == PQTRANS_INTRANS || status == PQTRANS_INERROR
    }

    /// Turns a libpq result into a `PGResult`, or throws for a failed command.
    func check(_ raw: OpaquePointer?) throws -> PGResult {
        guard let raw else {
            throw PGError(message: Self.firstLine(PQerrorMessage(handle)), connectionLost: !isHealthy)
        }
        let result = PGResult(raw)
        switch PQresultStatus(raw) {
        case PGRES_COMMAND_OK, PGRES_TUPLES_OK:
            return result
        default:
            let state = PQresultErrorField(raw, Int32(UInt8(ascii: "C"))).map { String(cString: $0) } ?? ""
            let message = PQresultErrorField(raw, Int32(UInt8(ascii: "M"))).map { String(cString: $0) }
                ?? Self.firstLine(PQerrorMessage(handle))
            throw PGError(sqlState: state, message: message, connectionLost: !isHealthy)
        }
    }

    /// Runs SQL text without parameters (several statements allowed: schema, BEGIN, LISTEN).
    @discardableResult
    func execute(_ sql: String) throws -> PGResult {
        try check(PQexec(handle, sql))
    }

    /// Runs one statement through its prepared form, with text-format parameters.
    @discardableResult
    func query(_ sql: String, _ values: [PGValue] = []) throws -> PGResult {
        let name = try statementName(for: sql)
        let texts = values.map(\.textForm)
        // strdup'd copies: libpq needs C strings that outlive the Swift temporaries.
        let cStrings: [UnsafeMutablePointer<CChar>?] = texts.map { $0.flatMap { strdup($0) } }
        defer { cStrings.forEach { free($0) } }
        let pointers = cStrings.map { UnsafePointer($0) }
        return try pointers.withUnsafeBufferPointer { buffer in
            try check(PQexecPrepared(handle, name, Int32(values.count), buffer.baseAddress, nil, nil, 0))
        }
    }

    /// Rows changed by a statement.
    @discardableResult
    func run(_ sql: String, _ values: [PGValue] = []) throws -> Int {
        try query(sql, values).affectedRows
    }

    private func statementName(for sql: String) throws -> String {
        if let name = prepared[sql] { return name }
        let name = "pushnode_\(prepared.count)"
        _ = try check(PQprepare(handle, name, sql, 0, nil))
        prepared[sql] = name
        return name
    }

    // MARK: LISTEN/NOTIFY

    /// Reads what the server sent; false when the connection failed.
    func consumeInput() -> Bool { PQconsumeInput(handle) == 1 }

    /// The channels of notifications received so far, emptied as it returns them.
    func takeNotifications() -> [String] {
        var channels: [String] = []
        while let notification = PQnotifies(handle) {
            channels.append(String(cString: notification.pointee.relname))
            PQfreemem(notification)
        }
        return channels
    }

    /// Blocks until the server sends something or `timeout` seconds passed; false on a socket error.
    func waitReadable(timeout: Double) -> Bool {
        pushnode_pq_wait_readable(handle, Int32(timeout * 1000)) >= 0
    }

    private static func firstLine(_ message: UnsafePointer<CChar>?) -> String {
        guard let message else { return "unknown error" }
        return String(cString: message).split(separator: "\n").first.map(String.init) ?? "unknown error"
    }
}
