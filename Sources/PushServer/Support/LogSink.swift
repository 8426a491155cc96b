import Foundation

/// Where log lines go: one `key=value` line per event, written whole. Callers must keep secrets
/// (tokens, endpoint URLs, keys, payloads, header values) out of the lines they write.
public struct LogSink: Sendable {
    private let writeLine: @Sendable (String) -> Void

    public init(_ writeLine: @escaping @Sendable (String) -> Void) { self.writeLine = writeLine }

    public func callAsFunction(_ line: String) { writeLine(line) }

    /// Standard error, one write per line.
    public static let standardError = LogSink { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Drops everything (tests).
    public static let discard = LogSink { _ in }
}
