import Foundation
import PushCrypto
import PushConfig
import PushStore

/// The node's VAPID key (RFC 8292): `webpush.vapidKeyPath` when set (it must exist: browser
/// subscriptions are bound to it), else `<dataDir>/vapid.pem`, generated once with mode 0600.
package enum VAPIDKeyFile {
    package static let generatedName = "vapid.pem"

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static func path(for config: NodeConfig) -> String {
        config.webpush.vapidKeyPath.isEmpty ? config.dataDir + "/" + generatedName : config.webpush.vapidKeyPath
    }

    /// Loads the configured or generated key, generating it when the default file is absent.
    package static func loadOrCreate(config: NodeConfig) throws -> VAPID.Key {
        if config.storage.driver == .postgres && config.webpush.vapidKeyPath.isEmpty {
            return try loadOrCreateShared(url: config.storage.url)
        }
        let path = path(for: config)
        if let pem = try? String(contentsOfFile: path, encoding: .utf8) {
            do { return try VAPID.Key(pemRepresentation: pem) } catch {
                throw Failure(description: "webpush.vapidKeyPath: \(path) is not a P-256 private key PEM")
            }
        }
        guard config.webpush.vapidKeyPath.isEmpty else {
            throw Failure(description: "webpush.vapidKeyPath: cannot read \(path)")
        }
        let key = try VAPID.Key.generate()
        try writeExclusively(try key.privateKey.pemRepresentation, to: path)
        // Another node process may have won the race: load what is on disk.
        return try VAPID.Key(pemRepresentation: String(contentsOfFile: path, encoding: .utf8))
    }

    /// postgres mode: the key lives in `node_keys`, so every node advertises (and signs with) the same one.
    private static func loadOrCreateShared(url: String) throws -> VAPID.Key {
        let pem = try PostgresSchema.sharedKey(named: "vapid", candidate: {
            try VAPID.Key.generate().privateKey.pemRepresentation
        }, url: url)
        return try VAPID.Key(pemRepresentation: pem)
    }

    /// Writes a new 0600 file; if another process created it first, that file wins.
    private static func writeExclusively(_ contents: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { return }
            throw Failure(description: "dataDir: cannot write \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        let bytes = Array(contents.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count, fsync(fd) == 0 else {
            throw Failure(description: "dataDir: cannot write \(path)")
        }
    }
}
