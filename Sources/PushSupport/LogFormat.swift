import Foundation

/// `log.format`: how a `LogRecord` becomes one line. Both start with the time (RFC 3339, UTC, ms).
///
/// - `text`: `2026-11-30T09:41:07.123Z level=info event=ready listen=127.0.0.1:8765`, a value
///   quoted (with `\`, `"` and control characters escaped) unless it is made only of characters
///   that cannot end a field, so text from outside can never forge a field or a line.
/// - `json`: one object per line, `{"ts": …, "level": …, "event": …, <fields>}`, numbers and
///   flags as JSON numbers and booleans.
package enum LogFormat: String, Sendable, CaseIterable {
    case text, json

    /// The whole line for `record` logged at `time`, without the line break.
    package func line(_ record: LogRecord, at time: Date) -> String {
        switch self {
        case .text: Timestamp.rfc3339(time) + " " + body(record)
        case .json: json(record, ts: Timestamp.rfc3339(time))
        }
    }

    /// The text line without the time.
    func body(_ record: LogRecord) -> String {
        let head = "level=\(record.level.rawValue) event=\(Self.textValue(record.event))"
        return record.fields.isEmpty ? head : head + " " + Self.fieldText(record.fields)
    }

    static func fieldText(_ fields: [LogField]) -> String {
        fields.map { "\($0.key)=\(textValue($0.value.plain))" }.joined(separator: " ")
    }

    private func json(_ record: LogRecord, ts: String) -> String {
        var out = "{\"ts\":\"\(ts)\",\"level\":\"\(record.level.rawValue)\",\"event\":" + Self.jsonString(record.event)
        for field in record.fields {
            out += "," + Self.jsonString(field.key) + ":"
            switch field.value {
            case .int, .bool: out += field.value.plain
            case .double(let x): out += x.isFinite ? String(x) : "null"
            case .string(let text): out += Self.jsonString(text)
            case .time: out += Self.jsonString(field.value.plain)
            }
        }
        return out + "}"
    }

    /// Bare when every character is one that cannot end a field or a line; else quoted.
    static func textValue(_ text: String) -> String {
        guard !text.isEmpty, text.unicodeScalars.allSatisfy(isBare) else { return LogSink.quoted(text) }
        return text
    }

    private static func isBare(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar {
        case "a"..."z", "A"..."Z", "0"..."9", ".", "_", "-", ":", "/", ",", "@", "+", "[", "]", "*": true
        default: false
        }
    }

    /// A JSON string literal (RFC 8259 §7): `"` and `\` escaped, control characters as `\uXXXX`.
    static func jsonString(_ text: String) -> String {
        quoted(text) { scalar in
            let hex = String(scalar.value, radix: 16)
            return "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
        }
    }

    /// `text` in double quotes with `\`, `"`, newline, return and tab escaped by backslash, and every
    /// other control character (and DEL) as `control` spells it: the escape of both formats.
    static func quoted(_ text: String, control: (Unicode.Scalar) -> String) -> String {
        var out = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F: out += control(scalar)
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }
}
