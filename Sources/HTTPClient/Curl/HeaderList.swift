import CCurl

/// Owns a `curl_slist` of request header lines; libcurl reads it until the transfer ends.
final class HeaderList {
    private(set) var list: UnsafeMutablePointer<curl_slist>?


    /// `Name: value` lines; an empty value is sent as `Name;` (curl's syntax for it).
    init(_ fields: [(String, String)]) throws(TransportError) {
        for (name, value) in fields {
            guard Self.isValid(name: name), Self.isValid(value: value) else { throw .invalidHeader }
            append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
    }

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

    func append(_ line: String) {
        list = curl_slist_append(list, line)
    }

    deinit {
        curl_slist_free_all(list)
    }
}
