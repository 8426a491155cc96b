/// JSON array texts bound as one parameter and read back with SQLite's `json_each`, so that one
/// statement covers a batch of rows (`… WHERE id IN (SELECT value FROM json_each(?))`) where a
/// statement per row cost a prepared-statement lookup, a bind and a step each.
enum SQLiteJSON {
    /// `[1,2,3]`.
    static func array(_ numbers: some Sequence<Int64>) -> String {
        var text = "["
        for (index, number) in numbers.enumerated() {
            if index > 0 { text += "," }
            text += String(number)
        }
        return text + "]"
    }

    /// `["a","b"]`, with `"`, `\` and control characters escaped (RFC 8259 §7).
    static func array(strings: [String]) -> String {
        var text = "["
        for (index, string) in strings.enumerated() {
            if index > 0 { text += "," }
            text += "\""
            for scalar in string.unicodeScalars {
                switch scalar {
                case "\"": text += "\\\""
                case "\\": text += "\\\\"
                case _ where scalar.value < 0x20: text += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
                default: text.unicodeScalars.append(scalar)
                }
            }
            text += "\""
        }
        return text + "]"
    }
}
