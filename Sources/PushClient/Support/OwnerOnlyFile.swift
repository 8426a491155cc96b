import Foundation

/// Reads a key file only its owner may read (account keys, space files): a file with any group or
/// other permission bit is refused, as ssh refuses such a private key — whoever reads it holds
/// the key. The one home of that rule for PushClient's key files.
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

    static func failure(_ message: String) -> PushClientError {
        PushClientError(code: .keyFile, message: message)
    }
}
