import Foundation
import PushCrypto
import PushSupport

/// The node's id, kept in `<dataDir>/node-id` (generated once, 0600), written into its outbox claims
/// so that a restarted node takes back its own claims at once instead of waiting for their lease.
/// Nodes sharing a database must have different data directories.
package enum NodeIdentity {
    package static let fileName = "node-id"

    /// The id file could not be written.
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    package static func loadOrCreate(dataDir: String) throws -> String {
        let path = dataDir + "/" + fileName
        if let text = try? String(contentsOfFile: path, encoding: .utf8) {
            let id = text.trimmingCharacters(in: .whitespacesAndNewlines)
            if !id.isEmpty { return id }
        }
        let id = Hex.encode(SecureRandom.bytes(16))
        do {
            if try SecretFile.createExclusively(path, contents: Array((id + "\n").utf8)) { return id }
        } catch {
            throw Failure(description: "dataDir: \(error)")
        }
        // Another process created it first: use its id.
        return try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
