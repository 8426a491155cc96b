/// pushnode's profile of RFC 9421 (PROTOCOL §2): label `push`, Ed25519 by the account key, and a
/// fixed list of covered components that depends only on the shape of the request.
public enum HTTPSignatureProfile {
    /// The signature label in `Signature-Input` and `Signature`.
    public static let label = "push"
    /// The `alg` parameter.
    public static let algorithm = "ed25519"
    /// The shortest `nonce` accepted.
    public static let minimumNonceLength = 16

    /// Whether the request counts as having a query (an empty query string does not).
    public static func hasQuery(_ query: String?) -> Bool { !(query ?? "").isEmpty }

    /// The covered component names, in order: `@method`, `@path`, then `@query` when there is a
    /// query, then `content-digest` when there is a body.
    public static func componentNames(query: String?, body: [UInt8]) -> [String] {
        var names = ["@method", "@path"]
        if hasQuery(query) { names.append("@query") }
        if !body.isEmpty { names.append("content-digest") }
        return names
    }

    /// The value of one covered component for a request.
    static func value(of name: String, method: String, path: String, query: String?, contentDigest: String?) -> String? {
        switch name {
        case "@method": return HTTPSignatureBase.Component.method(method).value
        case "@path": return HTTPSignatureBase.Component.path(path).value
        case "@query": return HTTPSignatureBase.Component.query(query ?? "").value
        case "content-digest": return contentDigest.map { HTTPSignatureBase.Component.field(name, $0).value }
        default: return nil
        }
    }
}
