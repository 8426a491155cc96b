import Foundation

/// One log event: a level, an event name and its fields in order. Records are what call sites
/// build; `LogFormat` turns one into a line. A field never holds a token, an endpoint URL, a key,
/// a payload or a header value: callers shorten or leave them out.
package struct LogRecord: Sendable, Equatable {
    package var level: LogLevel
    package var event: String
    package var fields: [LogField]

    package init(_ level: LogLevel, _ event: String, _ fields: [LogField]) {
        self.level = level
        self.event = event
        self.fields = fields
    }

    package init(_ level: LogLevel, _ event: String, _ fields: KeyValuePairs<String, LogValue> = [:]) {
        self.init(level, event, fields.map { LogField($0.key, $0.value) })
    }

    /// The value of the first field named `key`.
    package subscript(key: String) -> LogValue? { fields.first { $0.key == key }?.value }

    /// The text line without its timestamp (`level=info event=ready listen=…`): what tests compare.
    package var text: String { LogFormat.text.body(self) }

    /// The fields alone, as in a text line (`provider=fcm state=disabled`).
    package var fieldText: String { LogFormat.fieldText(fields) }
}

package struct LogField: Sendable, Equatable {
    package var key: String
    package var value: LogValue

    package init(_ key: String, _ value: LogValue) {
        self.key = key
        self.value = value
    }
}

/// A field's value. Strings come from string literals and interpolation; numbers and flags stay
/// typed so JSON lines carry them as JSON numbers and booleans; times print as RFC 3339 (UTC, ms).
package enum LogValue: Sendable, Equatable, ExpressibleByStringInterpolation, ExpressibleByIntegerLiteral,
    ExpressibleByBooleanLiteral {
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case time(Date)

    package init(stringLiteral value: String) { self = .string(value) }
    package init(integerLiteral value: Int) { self = .int(value) }
    package init(booleanLiteral value: Bool) { self = .bool(value) }

    /// Any integer type (`Int32` result codes, `UInt16` ports).
    package static func integer<I: BinaryInteger>(_ value: I) -> LogValue { .int(Int(value)) }

    /// The value as it reads in a line, before any quoting.
    package var plain: String {
        switch self {
        case .string(let text): text
        case .int(let n): String(n)
        case .double(let x): x.isFinite ? String(x) : "null"
        case .bool(let flag): flag ? "true" : "false"
        case .time(let date): Timestamp.rfc3339(date)
        }
    }
}
