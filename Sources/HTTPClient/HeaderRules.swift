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
        !value.utf8.contains { $0 == 0x0d || $0 == 0x0a || $0 == 0x00 }
            && value.utf8.first != 0x20 && value.utf8.last != 0x20
    }
}
