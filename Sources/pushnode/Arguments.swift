import Foundation
import PushSupport

/// A parsed command line: positional words and `--flag value` / `--switch` options.
struct Arguments {
    var positional: [String] = []
    var options: [String: String] = [:]
    /// Every value of each option, in order (`--mention A --mention B`); `options` keeps the last.
    var repeated: [String: [String]] = [:]
    var switches: Set<String> = []

    /// Flags that take no value.
    static let knownSwitches: Set<String> = ["help", "json", "once"]

    init(_ argv: [String]) throws {
        var i = 0
        while i < argv.count {
            let word = argv[i]
            if word.hasPrefix("--") {
                let name = String(word.dropFirst(2))
                if let eq = name.firstIndex(of: "=") {
                    let value = String(name[name.index(after: eq)...])
                    options[String(name[..<eq])] = value
                    repeated[String(name[..<eq]), default: []].append(value)
                } else if Self.knownSwitches.contains(name) {
                    switches.insert(name)
                } else {
                    guard i + 1 < argv.count else { throw CLIError("option --\(name) needs a value") }
                    options[name] = argv[i + 1]
                    repeated[name, default: []].append(argv[i + 1])
                    i += 1
                }
            } else {
                positional.append(word)
            }
            i += 1
        }
    }

    /// Every value given for `--name`, in order.
    func values(_ name: String) -> [String] { repeated[name] ?? [] }

    func required(_ name: String) throws -> String {
        guard let value = options[name], !value.isEmpty else { throw CLIError("missing --\(name)") }
        return value
    }
}

/// A failure reported on stderr with exit status 2.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ message: String) { description = message }
}

/// CLI output helpers: JSON on stdout, errors on stderr.
enum Output {
    static func json(_ object: [String: Any]) {
        let data = try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])
        FileHandle.standardOutput.write(data)
        FileHandle.standardOutput.write(Data("\n".utf8))
    }

    static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("pushnode: \(message)\n".utf8))
        exit(2)
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
