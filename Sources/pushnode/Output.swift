import Foundation
import PushProtocol

/// CLI output helpers: JSON on stdout, errors on stderr.
enum Output {
    static func json(_ object: [String: Any]) {
        let data = Data(JSON.document(object))
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    static func fail(_ message: String, hint: String? = nil) -> Never {
        FileHandle.standardError.write(Data("pushnode: \(message)\n".utf8))
        if let hint { self.hint(hint) }
        exit(2)
    }

    /// A `hint:` line on stderr (`ErrorHints`).
    static func hint(_ text: String) {
        FileHandle.standardError.write(Data("hint: \(text)\n".utf8))
    }

    /// Writes `contents` to `path` readable by the owner only (0600).
    static func writeSecret(_ contents: String, to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard fd >= 0 else { throw CLIError("cannot write \(path): \(String(cString: strerror(errno)))") }
        defer { close(fd) }
        fchmod(fd, 0o600)
        let bytes = Array(contents.utf8)
        guard write(fd, bytes, bytes.count) == bytes.count else { throw CLIError("cannot write \(path)") }
    }
}
