import CPostgres
import PushCrypto

/// Owns one `PGresult` (cleared in deinit): the rows of a command, in libpq's text format.
final class PGResult {
    private let handle: OpaquePointer

    init(_ handle: OpaquePointer) { self.handle = handle }

    deinit { PQclear(handle) }

    var rowCount: Int { Int(PQntuples(handle)) }

    /// Rows a command changed (`UPDATE`, `DELETE`, `INSERT`), 0 when it reports none.
    var affectedRows: Int { Int(String(cString: PQcmdTuples(handle))) ?? 0 }

    func row(_ index: Int) -> PGRow { PGRow(result: self, index: Int32(index)) }

    var rows: [PGRow] { (0..<rowCount).map(row) }

    fileprivate func isNull(_ row: Int32, _ column: Int32) -> Bool { PQgetisnull(handle, row, column) == 1 }

    fileprivate func text(_ row: Int32, _ column: Int32) -> String {
        guard let value = PQgetvalue(handle, row, column) else { return "" }
        let count = Int(PQgetlength(handle, row, column))
        return value.withMemoryRebound(to: UInt8.self, capacity: count) {
            String(decoding: UnsafeBufferPointer(start: $0, count: count), as: UTF8.self)
        }
    }
}

/// Column access to one row of a `PGResult` (which it keeps alive).
struct PGRow: StoreRow {
    fileprivate let result: PGResult
    fileprivate let index: Int32

    func isNull(_ column: Int32) -> Bool { result.isNull(index, column) }

    func text(_ column: Int32) -> String { result.text(index, column) }

    func int64(_ column: Int32) -> Int64 { Int64(text(column)) ?? 0 }

    func bool(_ column: Int32) -> Bool { text(column) == "t" }

    /// A `bytea` column in the server's hex output format (`\x…`).
    func bytes(_ column: Int32) throws -> [UInt8] {
        let hex = text(column)
        guard hex.hasPrefix("\\x") else { throw StoreError.corruptRecord("bytea not in hex format") }
        return try Hex.decode(String(hex.dropFirst(2)))
    }
}
