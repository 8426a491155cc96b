import Foundation

/// The state of one request while libmicrohttpd feeds it to us: created by the URI-log callback
/// (so the raw, still-escaped target is kept), released by the completion callback.
final class RequestContext {
    /// The request target exactly as sent, e.g. `/v1/tokens?x=1`.
    let rawTarget: String
    /// Set on the first access-handler call; the answer is given on a later one.
    var started = false
    var headers: [String: String] = [:]
    var body: [UInt8] = []
    /// The body went over the limit: the rest is discarded, and 413 is the answer.
    var tooLarge = false
    /// Bytes dropped after the chunk that took the body over the limit.
    var discarded = 0

    init(rawTarget: String) { self.rawTarget = rawTarget }

    /// Adds one header line, joining repeated fields with ", " (RFC 9110 §5.3).
    func addHeader(name: String, value: String) {
        let key = name.lowercased()
        if let existing = headers[key] {
            headers[key] = existing + ", " + value
        } else {
            headers[key] = value
        }
    }

    /// The path (no query) and the query (nil when absent or empty) of the target. An
    /// absolute-form target (`http://host/p?q`) is reduced to its path and query.
    var pathAndQuery: (path: String, query: String?) {
        var target = Substring(rawTarget)
        if let hash = target.firstIndex(of: "#") { target = target[..<hash] }
        if !target.hasPrefix("/"), let scheme = target.range(of: "://") {
            let afterAuthority = target[scheme.upperBound...].firstIndex { $0 == "/" || $0 == "?" }
            target = afterAuthority.map { target[$0...] } ?? ""
        }
        guard let mark = target.firstIndex(of: "?") else { return (target.isEmpty ? "/" : String(target), nil) }
        let path = target[..<mark]
        let query = target[target.index(after: mark)...]
        return (path.isEmpty ? "/" : String(path), query.isEmpty ? nil : String(query))
    }
}
