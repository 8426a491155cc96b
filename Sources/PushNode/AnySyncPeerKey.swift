import Foundation
import PushConfig
import PushCrypto
import PushSupport

/// The door's Ed25519 peer key (PROTOCOL §7 `anysync.peerKeyPath`): the TLS host key whose peer id
/// clients are configured with, also used as the node's handshake sign key. When the path is unset
/// the key is generated once into `<dataDir>/anysync-peer.key` (hex seed, mode 0600).
///
/// A configured file may hold the hex seed (64 hex digits), or the any-sync form: base64 or hex of
/// `seed ‖ public key` (64 bytes), as the reference server's `peerKey`.
package enum AnySyncPeerKey {
    package static let generatedName = "anysync-peer.key"

    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static func path(for config: NodeConfig) -> String {
        config.anysync.peerKeyPath.isEmpty ? config.dataDir + "/" + generatedName : config.anysync.peerKeyPath
    }

    package static func loadOrCreate(config: NodeConfig) throws -> Ed25519.KeyPair {
        let path = path(for: config)
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            guard let key = parse(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
                throw Failure(description: "anysync.peerKeyPath: \(path) is not an Ed25519 seed (hex) or seed ‖ public key (hex or base64)")
            }
            return key
        }
        guard config.anysync.peerKeyPath.isEmpty else {
            throw Failure(description: "anysync.peerKeyPath: cannot read \(path)")
        }
        try FileManager.default.createDirectory(atPath: config.dataDir, withIntermediateDirectories: true,
                                                attributes: [.posixPermissions: 0o700])
        let key = Ed25519.KeyPair()
        do { try SecretFile.createExclusively(path, contents: Array((Hex.encode(key.seed) + "\n").utf8)) } catch {
            throw Failure(description: "dataDir: \(error)")
        }
        // Another process may have won the race: what is on disk is the key.
        guard let text = try? String(contentsOfFile: path, encoding: .utf8),
              let stored = parse(text.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            throw Failure(description: "dataDir: cannot read back \(path)")
        }
        return stored
    }

    /// A hex seed, or hex/base64 of `seed ‖ public` whose halves match.
    static func parse(_ text: String) -> Ed25519.KeyPair? {
        let raw = (try? Hex.decode(text)) ?? (try? Base64.decode(text))
        guard let raw else { return nil }
        switch raw.count {
        case 32:
            return try? Ed25519.KeyPair(seed: raw)
        case 64:
            guard let key = try? Ed25519.KeyPair(seed: Array(raw[0..<32])), key.publicKey == Array(raw[32...]) else { return nil }
            return key
        default:
            return nil
        }
    }
}
