import Foundation
import PushCrypto

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
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if fd >= 0 {
            defer { close(fd) }
            let bytes = Array((id + "\n").utf8)
            guard write(fd, bytes, bytes.count) == bytes.count, fsync(fd) == 0 else {
                throw Failure(description: "dataDir: cannot write \(path)")
            }
            return id
        }
        guard errno == EEXIST else {
            throw Failure(description: "dataDir: cannot write \(path): \(String(cString: strerror(errno)))")
        }
        // Another process created it first: use its id.
        return try String(contentsOfFile: path, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
