import Foundation

/// JSON encoding with stable key order and unescaped slashes: the one encoder for every body the
/// node writes (API answers, provider requests, metrics detail).
package enum JSON {
    package static func encode<T: Encodable>(_ value: T) -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return Array((try? encoder.encode(value)) ?? Data("{}".utf8))
    }
}
