/// What a request header may hold, for both engines: data from a registration can never inject
/// a header or split a request.
enum HeaderRules {
    /// A token (RFC 9110 §5.1): visible ASCII without separators.
    static func isValid(name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy(isTokenByte)
    }

    /// Checked per byte of every header name of every request: a switch, not a search of the
    /// separators' string.
    private static func isTokenByte(_ byte: UInt8) -> Bool {
        switch byte {
        case ...0x20, 0x7f...: false
        case UInt8(ascii: "("), UInt8(ascii: ")"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "@"), UInt8(ascii: ","),
             UInt8(ascii: ";"), UInt8(ascii: ":"), UInt8(ascii: "\\"), UInt8(ascii: "\""), UInt8(ascii: "/"), UInt8(ascii: "["),
             UInt8(ascii: "]"), UInt8(ascii: "?"), UInt8(ascii: "="), UInt8(ascii: "{"), UInt8(ascii: "}"): false
        default: true
        }
    }

    /// No CR, LF or NUL (RFC 9110 §5.5), no leading or trailing whitespace.
    static func isValid(value: String) -> Bool {
        var value = value
        return value.withUTF8 { bytes in
            for byte in bytes where byte == 0x0d || byte == 0x0a || byte == 0x00 { return false }
            return bytes.first != 0x20 && bytes.last != 0x20
        }
    }
}
