import Foundation
import PushConfig
import PushCrypto
import PushStore
import PushSupport

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
        do { try SecretFile.createExclusively(path, contents: Array(try key.privateKey.pemRepresentation.utf8)) } catch {
            throw Failure(description: "dataDir: \(error)")
        }
        // Another node process may have won the race: load what is on disk.
        return try VAPID.Key(pemRepresentation: String(contentsOfFile: path, encoding: .utf8))
    }

    /// The key a start would use, without generating or storing one: nil when there is none yet
    /// (the first start generates it). Throws when the configured key cannot be read or parsed.
    package static func loadExisting(config: NodeConfig) throws -> VAPID.Key? {
        if config.storage.driver == .postgres && config.webpush.vapidKeyPath.isEmpty {
            guard let pem = try PostgresSchema.storedSharedKey(named: "vapid", url: config.storage.url) else { return nil }
            do { return try VAPID.Key(pemRepresentation: pem) } catch {
                throw Failure(description: "the VAPID key stored in the database is not a P-256 private key PEM")
            }
        }
        let path = path(for: config)
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else {
            guard config.webpush.vapidKeyPath.isEmpty else { throw Failure(description: "webpush.vapidKeyPath: cannot read \(path)") }
            return nil
        }
        do { return try VAPID.Key(pemRepresentation: pem) } catch {
            throw Failure(description: "\(config.webpush.vapidKeyPath.isEmpty ? "dataDir" : "webpush.vapidKeyPath"): \(path) is not a P-256 private key PEM")
        }
    }

    /// postgres mode: the key lives in `node_keys`, so every node advertises (and signs with) the same one.
    private static func loadOrCreateShared(url: String) throws -> VAPID.Key {
        let pem = try PostgresSchema.sharedKey(named: "vapid", candidate: {
            try VAPID.Key.generate().privateKey.pemRepresentation
        }, url: url)
        return try VAPID.Key(pemRepresentation: pem)
    }
}
