#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way a secret or identity file is first written (VAPID key, any-sync peer key, node
/// id, PushClient's account key): created with `O_EXCL` at mode 0600, written whole and
/// fsynced. `O_EXCL` means an existing file is never replaced: it may hold the only copy of a
/// key, and when two processes race the first file wins and both read it back.
package enum SecretFile {
    /// Why a file could not be created; `description` names the path, never the contents.
    package struct WriteError: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// Creates `path` holding `contents`. Returns false, writing nothing, when the file already
    /// exists (another process won the race: read what is there).
    @discardableResult
    package static func createExclusively(_ path: String, contents: [UInt8]) throws(WriteError) -> Bool {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard fd >= 0 else {
            if errno == EEXIST { return false }
            throw WriteError(description: "cannot create \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(fd) }
        fchmod(fd, 0o600)  // the umask cannot widen 0600, but it may have narrowed it
        let written = contents.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        guard written == contents.count, fsync(fd) == 0 else {
            unlink(path)  // a torn file must not pass for a key next start
            throw WriteError(description: "cannot write \(path)")
        }
        return true
    }
}
