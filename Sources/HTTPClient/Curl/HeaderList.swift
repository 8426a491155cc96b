import CCurl

/// Owns a `curl_slist` of request header lines; libcurl reads it until the transfer ends.
final class HeaderList {
    private(set) var list: UnsafeMutablePointer<curl_slist>?

    /// `Name: value` lines; an empty value is sent as `Name;` (curl's syntax for it).
    init(_ fields: [(String, String)]) throws(TransportError) {
        for (name, value) in fields {
            guard HeaderRules.isValid(name: name), HeaderRules.isValid(value: value) else { throw .invalidHeader }
            append(value.isEmpty ? "\(name);" : "\(name): \(value)")
        }
    }

    func append(_ line: String) {
        list = curl_slist_append(list, line)
    }

    deinit {
        curl_slist_free_all(list)
    }
}
