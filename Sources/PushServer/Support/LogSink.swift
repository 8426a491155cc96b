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

    /// A value as a double-quoted log field, with `\`, `"` and line breaks escaped so that
    /// text from outside (config keys, error messages) cannot forge fields or lines.
    public static func quoted(_ text: String) -> String {
        var out = "\""
        for ch in text.unicodeScalars {
            switch ch {
            case "\\": out += "\\\\"
            case "\"": out += "\\\""
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            default: out.unicodeScalars.append(ch)
            }
        }
        return out + "\""
    }
}
