import Foundation

/// A broken invariant is a finding: print it and abort, so libFuzzer writes the input as a crash.
enum FuzzCheck {
    static func expect(_ condition: @autoclosure () -> Bool, _ message: @autoclosure () -> String,
                       file: StaticString = #fileID, line: UInt = #line) {
        guard !condition() else { return }
        FileHandle.standardError.write(Data("fuzz invariant broken at \(file):\(line): \(message())\n".utf8))
        abort()
    }
}

/// Splits fuzz input into the pieces a target needs: lines of text, or a leading selector byte.
extension Array where Element == UInt8 {
    /// The input as UTF-8 text (invalid sequences repaired, as a header or YAML reader would see them).
    var text: String { String(decoding: self, as: UTF8.self) }

    /// The part before the first newline and the part after it (empty when there is none).
    var splitAtFirstNewline: (first: [UInt8], rest: [UInt8]) {
        guard let index = firstIndex(of: 0x0a) else { return (self, []) }
        return (Array(self[..<index]), Array(self[(index + 1)...]))
    }

    /// The first byte (0 when empty) and the rest.
    var selectorAndRest: (selector: UInt8, rest: [UInt8]) {
        guard let first else { return (0, []) }
        return (first, Array(dropFirst()))
    }
}
