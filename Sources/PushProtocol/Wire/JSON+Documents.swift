import Foundation

/// Loosely shaped JSON: documents the package reads but does not define (a provider's error
/// body, an OAuth answer, a service-account file, a payload the user wrote) and the CLI's printed
/// answers. Foundation's `JSONSerialization` does the work; this is the one place that calls it,
/// so every target reads and writes such documents alike (keys sorted, `/` unescaped).
extension JSON {
    /// `bytes` as a JSON object, or nil when they are not one.
    package static func object(_ bytes: some Sequence<UInt8>) -> [String: Any]? {
        (try? JSONSerialization.jsonObject(with: Data(bytes))) as? [String: Any]
    }

    /// `bytes` as any JSON value, a bare string or number included; nil when they are not JSON.
    package static func value(_ bytes: some Sequence<UInt8>) -> Any? {
        try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed])
    }

    /// `value` pretty-printed (indented, keys sorted, `/` unescaped): a file a person may read.
    package static func pretty<T: Encodable>(_ value: T) throws -> [UInt8] {
        try foundationEncode(value) { $0.outputFormatting.insert(.prettyPrinted) }
    }

    /// A document of Foundation values (dictionaries, arrays, strings, numbers, booleans,
    /// `NSNull`) as compact JSON with sorted keys; `{}` for a value JSON cannot hold.
    package static func document(_ object: Any) -> [UInt8] {
        guard JSONSerialization.isValidJSONObject(object),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        else { return Array("{}".utf8) }
        return Array(data)
    }
}
