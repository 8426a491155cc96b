import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where log lines are written: standard error, or `log.file` opened for appending. Each line is
/// one `write(2)` under a lock, so lines from many threads never interleave.
///
/// `reopen()` is for logrotate: after it renamed the file away, SIGHUP makes the node open a new
/// file at the path; lines written until then went to the renamed one, none is lost or split.
package final class LogOutput: Sendable {
    /// The file's path; nil for standard error.
    package let path: String?
    private let descriptor: Protected<Int32>

    package static let standardError = LogOutput(path: nil, descriptor: STDERR_FILENO)

    private init(path: String?, descriptor: Int32) {
        self.path = path
        self.descriptor = Protected(descriptor)
    }

    /// Opens (creating it mode 0640 when missing) `path` for appending.
    package convenience init(path: String) throws(LogOutputError) {
        self.init(path: path, descriptor: try Self.open(path))
    }

    deinit {
        descriptor.withLock { if $0 != STDERR_FILENO && $0 >= 0 { close($0) } }
    }

    /// Writes `line` and a line break.
    package func write(_ line: String) {
        var bytes = Array(line.utf8)
        bytes.append(0x0A)
        descriptor.withLock { fd in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + offset, $0.count - offset) }
                if written < 0 && errno == EINTR { continue }
                guard written > 0 else { return }  // a full disk must not stop the node
                offset += written
            }
        }
    }

    /// Opens the path again and writes there from now on (standard error: nothing to do). On a
    /// failure the old file is kept, so logging goes on.
    package func reopen() throws(LogOutputError) {
        guard let path else { return }
        let fresh = try Self.open(path)
        let old = descriptor.withLock { fd in
            defer { fd = fresh }
            return fd
        }
        close(old)
    }

    private static func open(_ path: String) throws(LogOutputError) -> Int32 {
        let fd = Glibc.open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o640)
        guard fd >= 0 else { throw LogOutputError(path: path, reason: String(cString: strerror(errno))) }
        return fd
    }
}

/// `log.file` could not be opened.
package struct LogOutputError: Error, CustomStringConvertible, Sendable {
    package let path: String
    package let reason: String
    package var description: String { "log.file: cannot open \(path): \(reason)" }
}
