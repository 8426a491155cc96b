/// A value bound to a statement parameter.
enum SQLiteValue: Sendable {
    case integer(Int64)
    case text(String)
    case blob([UInt8])
    case null

    static func int(_ value: Int) -> SQLiteValue { .integer(Int64(value)) }
    static func optionalText(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
    static func optionalBlob(_ value: [UInt8]?) -> SQLiteValue { value.map { .blob($0) } ?? .null }
}
