import Foundation
import PushConfig
import PushStore

extension LiveCheck {
    /// Connects to `storage.url` and compares the schema version with this build's.
    static func postgres(config: NodeConfig) -> Result {
        let status: PostgresSchemaStatus
        do { status = try PostgresSchemaStatus.read(url: config.storage.url) } catch {
            let cause = PostgresURL.redacting("\(error)", in: config.storage.url)
            return Result("postgres", ok: false, "cannot use the database: \(cause)")
        }
        guard let found = status.found else {
            return Result("postgres", ok: true, "reachable, no schema yet: serve creates version \(status.supported) on start")
        }
        guard status.isUsable else {
            return Result("postgres", ok: false,
                          "schema version \(found) is newer than this build's \(status.supported): upgrade pushnode")
        }
        if found < status.supported {
            return Result("postgres", ok: true, "reachable, schema version \(found): serve migrates it to \(status.supported) on start")
        }
        return Result("postgres", ok: true, "reachable, schema version \(found) (this build's)")
    }
}

/// Keeps a `storage.url` password out of text shown to the operator.
enum PostgresURL {
    /// `text` with the URL's password (`postgres://user:PASSWORD@…` or `password=…`) replaced.
    static func redacting(_ text: String, in url: String) -> String {
        guard let password = password(in: url), !password.isEmpty else { return text }
        var out = text.replacingOccurrences(of: password, with: "<password>")
        if let decoded = password.removingPercentEncoding, !decoded.isEmpty {
            out = out.replacingOccurrences(of: decoded, with: "<password>")
        }
        return out
    }

    static func password(in url: String) -> String? {
        if let components = URLComponents(string: url), components.scheme?.hasPrefix("postgres") == true {
            return components.percentEncodedPassword
                ?? components.queryItems?.first { $0.name == "password" }?.value
        }
        for word in url.split(separator: " ") where word.hasPrefix("password=") {
            return String(word.dropFirst("password=".count)).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
        }
        return nil
    }
}
