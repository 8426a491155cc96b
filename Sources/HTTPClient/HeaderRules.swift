/// What a request header may hold, for both engines: data from a registration can never inject
/// a header or split a request.
enum HeaderRules {
    /// A token (RFC 9110 §5.1): visible ASCII without separators.
    static func isValid(name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { byte in
            byte > 0x20 && byte < 0x7f && !#"()<>@,;:\"/[]?={}"#.utf8.contains(byte)
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
