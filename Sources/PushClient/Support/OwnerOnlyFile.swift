import Foundation
import PushSupport

/// Reads and creates key files only their owner may read (account keys, space files): a file with
/// any group or other permission bit is refused, as ssh refuses such a private key — whoever reads
/// it holds the key. The one home of that rule for PushClient's key files.
enum OwnerOnlyFile {
    /// The bytes at `path`.
    /// - Throws: `PushClientError` `client.key_file` when the file is missing, unreadable or open to others.
    static func read(_ path: String) throws(PushClientError) -> [UInt8] {
        var info = stat()
        guard stat(path, &info) == 0 else { throw failure("\(path): \(String(cString: strerror(errno)))") }
        guard info.st_mode & 0o077 == 0 else {
            throw failure("\(path) is accessible by others (mode \(String(info.st_mode & 0o777, radix: 8))); chmod 600 it")
        }
        guard let data = FileManager.default.contents(atPath: path) else { throw failure("\(path) cannot be read") }
        return Array(data)
    }

    /// Writes `contents` to a new file at `path` (mode 0600, `O_EXCL`: never replacing a file, which
    /// may hold the only copy of another key).
    /// - Throws: `PushClientError` `client.key_file` when the file exists or cannot be written.
    static func create(_ path: String, contents: [UInt8]) throws(PushClientError) {
        let created: Bool
        do { created = try SecretFile.createExclusively(path, contents: contents) } catch {
            throw failure(error.description)
        }
        guard created else { throw failure("cannot create \(path): \(String(cString: strerror(EEXIST)))") }
    }

    static func failure(_ message: String) -> PushClientError {
        PushClientError(code: .keyFile, message: message)
    }
}
