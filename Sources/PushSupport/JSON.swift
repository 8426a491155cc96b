import Foundation

/// JSON encoding with stable key order and unescaped slashes: the one encoder for every body the
/// node writes (API answers, provider requests, metrics detail).
package enum JSON {
    /// - Parameter rfc3339Dates: `Date`s as `Timestamp.rfc3339` strings (else Foundation's default,
    ///   seconds since 2001, which no body the node writes should carry).
    package static func encode<T: Encodable>(_ value: T, rfc3339Dates: Bool = false) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        if rfc3339Dates {
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(Timestamp.rfc3339(date))
            }
        }
        return Array((try? encoder.encode(value)) ?? Data("{}".utf8))
    }
}
