import Foundation
import PushConfig
import PushCrypto
import PushStore
import PushSupport

/// An app's VAPID key (RFC 8292): its `webpush.vapidKeyPath` when set (it must exist: browser
/// subscriptions are bound to it), else generated once with mode 0600 into `<dataDir>/vapid.pem`
/// for the app `default` and `<dataDir>/vapid-<app>.pem` for another (in postgres mode, into the
/// database, so every node signs with the same key).
package enum VAPIDKeyFile {
    package static let generatedName = "vapid.pem"

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// The key file of the app `default`.
    package static func path(for config: NodeConfig) -> String { path(for: config.allApps[0], config: config) }

    package static func path(for app: NodeConfig.App, config: NodeConfig) -> String {
        app.webpush.vapidKeyPath.isEmpty ? config.dataDir + "/" + generatedName(of: app) : app.webpush.vapidKeyPath
    }

    /// `vapid.pem` for `default`; `vapid-<id>.pem` for an id of letters, digits, `.`, `_` and
    /// `-` (not starting with `.`), else `vapid-<16 hex of SHA-256(id)>.pem`.
    static func generatedName(of app: NodeConfig.App) -> String {
        guard !app.isDefault else { return generatedName }
        let safe = app.id.unicodeScalars.allSatisfy { $0.isASCII && (CharacterSet.alphanumerics.contains($0) || "._-".unicodeScalars.contains($0)) }
        let name = safe && !app.id.hasPrefix(".") ? app.id : Hex.encode(Array(SHA256.hash(Array(app.id.utf8)).prefix(8)))
        return "vapid-\(name).pem"
    }

    /// The name of an app's key in the database's `node_keys` (postgres mode).
    static func sharedName(of app: NodeConfig.App) -> String { app.isDefault ? "vapid" : "vapid:\(app.id)" }

    /// The key of the app `default`.
    package static func loadOrCreate(config: NodeConfig) throws -> VAPID.Key { try loadOrCreate(app: config.allApps[0], config: config) }

    /// Loads the app's configured or generated key, generating it when the default file is absent.
    package static func loadOrCreate(app: NodeConfig.App, config: NodeConfig) throws -> VAPID.Key {
        let configured = app.webpush.vapidKeyPath
        if config.storage.driver == .postgres && configured.isEmpty {
            return try loadOrCreateShared(name: sharedName(of: app), url: config.storage.url)
        }
        let path = path(for: app, config: config)
        if let pem = try? String(contentsOfFile: path, encoding: .utf8) {
            do { return try VAPID.Key(pemRepresentation: pem) } catch {
                throw Failure(description: "webpush.vapidKeyPath: \(path) is not a P-256 private key PEM")
            }
        }
        guard configured.isEmpty else {
            throw Failure(description: "webpush.vapidKeyPath: cannot read \(path)")
        }
        let key = try VAPID.Key.generate()
        do { try SecretFile.createExclusively(path, contents: Array(try key.privateKey.pemRepresentation.utf8)) } catch {
            throw Failure(description: "dataDir: \(error)")
        }
        // Another node process may have won the race: load what is on disk.
        return try VAPID.Key(pemRepresentation: String(contentsOfFile: path, encoding: .utf8))
    }

    /// The key of the app `default` a start would use, without generating one.
    package static func loadExisting(config: NodeConfig) throws -> VAPID.Key? { try loadExisting(app: config.allApps[0], config: config) }

    /// The key a start would use, without generating or storing one: nil when there is none yet
    /// (the first start generates it). Throws when the configured key cannot be read or parsed.
    package static func loadExisting(app: NodeConfig.App, config: NodeConfig) throws -> VAPID.Key? {
        let configured = app.webpush.vapidKeyPath
        if config.storage.driver == .postgres && configured.isEmpty {
            guard let pem = try PostgresSchema.storedSharedKey(named: sharedName(of: app), url: config.storage.url) else { return nil }
            do { return try VAPID.Key(pemRepresentation: pem) } catch {
                throw Failure(description: "the VAPID key stored in the database is not a P-256 private key PEM")
            }
        }
        let path = path(for: app, config: config)
        guard let pem = try? String(contentsOfFile: path, encoding: .utf8) else {
            guard configured.isEmpty else { throw Failure(description: "webpush.vapidKeyPath: cannot read \(path)") }
            return nil
        }
        do { return try VAPID.Key(pemRepresentation: pem) } catch {
            throw Failure(description: "\(configured.isEmpty ? "dataDir" : "webpush.vapidKeyPath"): \(path) is not a P-256 private key PEM")
        }
    }

    /// postgres mode: the key lives in `node_keys`, so every node advertises (and signs with) the same one.
    private static func loadOrCreateShared(name: String, url: String) throws -> VAPID.Key {
        let pem = try PostgresSchema.sharedKey(named: name, candidate: {
            try VAPID.Key.generate().privateKey.pemRepresentation
        }, url: url)
        return try VAPID.Key(pemRepresentation: pem)
    }
}
