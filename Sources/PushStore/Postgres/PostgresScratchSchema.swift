import Foundation

/// A schema of its own on the database a URL names, for a test or a benchmark run: `url` makes
/// every connection use it (`search_path`, and the schema's name as `application_name`, so its
/// connections can be found); `drop()` removes it with everything in it.
package struct PostgresScratchSchema: Sendable {
    package let name: String
    /// The base URL with the schema's options; holds the base URL's password, if any.
    package let url: String
    private let baseURL: String

    package init(baseURL: String) throws {
        name = "t_" + UUID().uuidString.replacingOccurrences(of: "-", with: "").lowercased()
        self.baseURL = baseURL
        _ = try PGConnection(conninfo: baseURL).execute("CREATE SCHEMA \(name)")
        url = baseURL + (baseURL.contains("?") ? "&" : "?") + "options=-csearch_path%3D\(name)&application_name=\(name)"
    }

    package func drop() {
        _ = try? PGConnection(conninfo: baseURL).execute("DROP SCHEMA \(name) CASCADE")
    }
}
