import Foundation

/// Where log lines go: one `key=value` line per event, written whole. Callers must keep secrets
/// (tokens, endpoint URLs, keys, payloads, header values) out of the lines they write.
package struct LogSink: Sendable {
    private let writeLine: @Sendable (String) -> Void

    package init(_ writeLine: @escaping @Sendable (String) -> Void) { self.writeLine = writeLine }

    package func callAsFunction(_ line: String) { writeLine(line) }

    /// Standard error, one write per line.
    package static let standardError = LogSink { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    /// Drops everything (tests).
    package static let discard = LogSink { _ in }

    /// A value as a double-quoted log field, with `\`, `"` and line breaks escaped so that
    /// text from outside (config keys, error messages) cannot forge fields or lines.
    package static func quoted(_ text: String) -> String {
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
