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
    /// A `BEGIN` not sent yet (`begin()`): it goes out with the transaction's first statement.
    private var beginPending = false

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

    /// Whether a pipeline was left unfinished (`beginAndQuery` after the server stopped answering).
    var isInPipeline: Bool { PQpipelineStatus(handle) != PQ_PIPELINE_OFF }

    /// Whether a transaction is open (or failed and not yet rolled back), or begun and not yet sent.
    var isInTransaction: Bool {
        if beginPending { return true }
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

    /// Runs SQL text without parameters (several statements allowed: schema, LISTEN, COMMIT).
    @discardableResult
    func execute(_ sql: String) throws -> PGResult {
        guard beginPending else { return try check(PQexec(handle, sql)) }
        beginPending = false
        return try check(PQexec(handle, "BEGIN; " + sql))
    }

    /// Opens a transaction with the next statement: its `BEGIN` is sent in the same round trip
    /// (`query` pipelines the two, `execute` prefixes it). A lost connection before `COMMIT` still
    /// loses only an open transaction, which the server rolls back.
    func begin() { beginPending = true }

    /// Runs one statement through its prepared form, with text-format parameters.
    @discardableResult
    func query(_ sql: String, _ values: [PGValue] = []) throws -> PGResult {
        if beginPending {
            beginPending = false
            return try beginAndQuery(sql, values)
        }
        let name = try statementName(for: sql)
        return try withParameters(values) { count, parameters in
            try check(PQexecPrepared(handle, name, count, parameters, nil, nil, 0))
        }
    }

    /// `body` with the values as C strings (strdup'd: libpq needs C strings that outlive the Swift temporaries).
    private func withParameters<T>(_ values: [PGValue],
                                   _ body: (Int32, UnsafePointer<UnsafePointer<CChar>?>?) throws -> T) throws -> T {
        let cStrings: [UnsafeMutablePointer<CChar>?] = values.map { $0.textForm.flatMap { strdup($0) } }
        defer { cStrings.forEach { free($0) } }
        let pointers = cStrings.map { UnsafePointer($0) }
        return try pointers.withUnsafeBufferPointer { try body(Int32(values.count), $0.baseAddress) }
    }

    /// `BEGIN`, the statement's `PREPARE` when this connection has not prepared it yet, and the
    /// statement, in one libpq pipeline: one round trip. The results come back in order, each
    /// followed by a null, then the sync; after a failure the rest are `PIPELINE_ABORTED`, and the
    /// first failure is thrown (the transaction is then aborted, as after any failed statement).
    private func beginAndQuery(_ sql: String, _ values: [PGValue]) throws -> PGResult {
        let known = prepared[sql]
        let name = known ?? "pushnode_\(prepared.count)"
        guard PQenterPipelineMode(handle) == 1 else { throw lastError() }
        defer { PQexitPipelineMode(handle) }
        var sent = PQsendQueryParams(handle, "BEGIN", 0, nil, nil, nil, nil, 0) == 1
        if known == nil { sent = sent && PQsendPrepare(handle, name, sql, 0, nil) == 1 }
        sent = try sent && withParameters(values) { count, parameters in
            PQsendQueryPrepared(handle, name, count, parameters, nil, nil, 0) == 1
        }
        guard sent && PQpipelineSync(handle) == 1 else { throw lastError() }
        var outcomes: [Result<PGResult, Error>] = []
        for _ in 0..<(known == nil ? 3 : 2) {
            guard let raw = PQgetResult(handle) else { throw lastError() }
            outcomes.append(Result { try check(raw) })
            while let extra = PQgetResult(handle) { PQclear(extra) }  // the command's end (a null)
        }
        guard let sync = PQgetResult(handle) else { throw lastError() }
        let synced = PQresultStatus(sync) == PGRES_PIPELINE_SYNC
        PQclear(sync)
        guard synced else { throw lastError() }
        if known == nil, case .success = outcomes[1] { prepared[sql] = name }
        for outcome in outcomes { _ = try outcome.get() }
        return try outcomes[outcomes.count - 1].get()
    }

    private func lastError() -> PGError {
        PGError(message: Self.firstLine(PQerrorMessage(handle)), connectionLost: !isHealthy)
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
