import PushCrypto

/// A statement parameter in libpq's text format.
enum PGValue: Sendable {
    case integer(Int64)
    case text(String)
    case bytes([UInt8])
    case textArray([String])
    case integerArray([Int64])
    case null

    static func int(_ value: Int) -> PGValue { .integer(Int64(value)) }
    static func optionalText(_ value: String?) -> PGValue { value.map { .text($0) } ?? .null }
    static func optionalBytes(_ value: [UInt8]?) -> PGValue { value.map { .bytes($0) } ?? .null }

    /// The text form the server parses for the parameter's type; nil for SQL NULL.
    var textForm: String? {
        switch self {
        case .integer(let number): return String(number)
        case .text(let text): return text
        case .bytes(let bytes): return "\\x" + Hex.encode(bytes)
        case .textArray(let items): return "{" + items.map(Self.quotedElement).joined(separator: ",") + "}"
        case .integerArray(let items): return "{" + items.map(String.init).joined(separator: ",") + "}"
        case .null: return nil
        }
    }

    /// An array element in double quotes, with `"` and `\` escaped (so NULL, commas and braces are literal).
    private static func quotedElement(_ text: String) -> String {
        var quoted = "\""
        for character in text {
            if character == "\"" || character == "\\" { quoted.append("\\") }
            quoted.append(character)
        }
        return quoted + "\""
    }
}
