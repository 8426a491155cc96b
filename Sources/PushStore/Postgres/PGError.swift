/// A failed libpq call: the SQLSTATE (empty when the server never answered) and libpq's message.
/// Messages name the statement's problem, never bound values.
package struct PGError: Error, Equatable, Sendable, CustomStringConvertible {
    package var sqlState = ""
    package var message: String
    /// The connection was lost (or never made): the server may not have seen the command.
    package var connectionLost = false

    package var description: String {
        connectionLost ? "postgres connection lost: \(message)" : "postgres error \(sqlState): \(message)"
    }

    /// A conflict between concurrent transactions that the same transaction, run again, resolves.
    var isRetryableConflict: Bool { sqlState == "40001" || sqlState == "40P01" }
}
