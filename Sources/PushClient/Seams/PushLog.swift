import Foundation

/// One-line `key=value` event log (ARCHITECTURE "Habits"). Callers pass counts, ids and codes —
/// never tokens, endpoint URLs, keys or payloads.
public struct PushLog: Sendable {
    private let sink: @Sendable (String) -> Void

    public init(_ sink: @escaping @Sendable (String) -> Void) { self.sink = sink }

    /// Discards everything.
    public static let none = PushLog { _ in }

    /// Writes each line to standard error.
    public static let standardError = PushLog { line in
        FileHandle.standardError.write(Data((line + "\n").utf8))
    }

    public func event(_ name: String, _ fields: [(String, String)] = []) {
        var line = "event=\(name)"
        for (key, value) in fields { line += " \(key)=\(Self.quoted(value))" }
        sink(line)
    }

    private static func quoted(_ value: String) -> String {
        let plain = !value.isEmpty && value.unicodeScalars.allSatisfy { $0.value > 0x20 && $0 != "\"" && $0 != "=" && $0.value < 0x7f }
        if plain { return value }
        return "\"" + value.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "\n", with: "\\n") + "\""
    }
}
