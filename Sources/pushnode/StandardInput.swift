import Foundation

/// Reading the whole of stdin, for commands that take their message or payload there.
enum StandardInput {
    static func readAll() -> [UInt8] {
        [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    }

    /// stdin as UTF-8 text with surrounding whitespace (e.g. a trailing newline) removed.
    static func readTrimmedText() -> String {
        String(decoding: readAll(), as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
