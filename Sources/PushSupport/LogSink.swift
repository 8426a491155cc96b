import Foundation

/// Where the node's log records go: dropped below the configured level, else formatted
/// (`LogFormat`, stamped with the time) and written whole to a `LogOutput`. Callers must keep
/// secrets (tokens, endpoint URLs, keys, payloads, header values) out of the fields they log.
package struct LogSink: Sendable {
    /// Records below this level are dropped before anything is formatted.
    package let minimum: LogLevel
    private let emit: @Sendable (LogRecord) -> Void

    /// Every record at `minimum` or above goes to `emit`.
    package init(minimum: LogLevel = .debug, records emit: @escaping @Sendable (LogRecord) -> Void) {
        self.minimum = minimum
        self.emit = emit
    }

    /// Every record as its text without the time (`level=info event=… k=v`): tests collect these.
    package init(_ writeLine: @escaping @Sendable (String) -> Void) {
        self.init(records: { writeLine($0.text) })
    }

    /// `log.level`, `log.format` and `log.file` (or standard error) put together.
    package static func writing(to output: LogOutput, format: LogFormat = .text, minimum: LogLevel = .info,
                                now: @escaping @Sendable () -> Date = { Date() }) -> LogSink {
        LogSink(minimum: minimum) { record in output.write(format.line(record, at: now())) }
    }

    /// Standard error, text, `info` and above: the default until the config is read.
    package static let standardError = writing(to: .standardError)

    /// Drops everything (tests).
    package static let discard = LogSink(minimum: .error) { _ in }

    /// Whether a record of `level` would be written (skip building costly debug records).
    package func isEnabled(_ level: LogLevel) -> Bool { level >= minimum }

    package func callAsFunction(_ record: LogRecord) {
        if record.level >= minimum { emit(record) }
    }

    package func callAsFunction(_ level: LogLevel, _ event: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        guard level >= minimum else { return }
        emit(LogRecord(level, event, fields))
    }

    /// A value as a double-quoted log field, with `\`, `"` and control characters escaped so
    /// that text from outside (config keys, error messages) cannot forge fields or lines.
    package static func quoted(_ text: String) -> String {
        LogFormat.quoted(text) { "\\x" + String($0.value, radix: 16) }
    }
}
