/// Writes JSON the way Go's `encoding/json` `Marshal` does, so payload bytes match the any/Anytype
/// senders': keys in the order written, no spaces, and strings escaped like Go (`<`, `>`, `&`,
/// U+2028 and U+2029 as `\uXXXX`; `\b \f \n \r \t` short; other controls as `\u00xx`; lowercase hex;
/// every other character as raw UTF-8, `/` unescaped).
struct GoJSONWriter {
    private(set) var bytes: [UInt8] = []
    private var needsComma: [Bool] = []

    init() { bytes.reserveCapacity(512) }

    mutating func beginObject() { open(UInt8(ascii: "{")) }
    mutating func endObject() { close(UInt8(ascii: "}")) }
    mutating func beginArray() { open(UInt8(ascii: "[")) }
    mutating func endArray() { close(UInt8(ascii: "]")) }

    /// A container begins: a comma before it when it follows a sibling; its first child needs none.
    private mutating func open(_ bracket: UInt8) {
        separate()
        bytes.append(bracket)
        needsComma.append(false)
    }

    private mutating func close(_ bracket: UInt8) {
        bytes.append(bracket)
        needsComma.removeLast()
    }

    /// Writes `"name":`; the value written next belongs to it.
    mutating func key(_ name: String) {
        separate()
        appendString(name)
        bytes.append(UInt8(ascii: ":"))
        if !needsComma.isEmpty { needsComma[needsComma.count - 1] = false }
    }

    mutating func string(_ value: String) {
        separate()
        appendString(value)
    }

    mutating func int(_ value: Int) {
        separate()
        bytes.append(contentsOf: Array(String(value).utf8))
    }

    mutating func bool(_ value: Bool) {
        separate()
        bytes.append(contentsOf: Array((value ? "true" : "false").utf8))
    }

    /// Puts the comma before a value or key that follows another in the same container.
    private mutating func separate() {
        guard let last = needsComma.last else { return }
        if last { bytes.append(UInt8(ascii: ",")) }
        needsComma[needsComma.count - 1] = true
    }

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    private mutating func appendString(_ value: String) {
        bytes.append(UInt8(ascii: "\""))
        for scalar in value.unicodeScalars {
            switch scalar.value {
            case 0x22: bytes.append(contentsOf: [0x5c, 0x22])                       // \"
            case 0x5c: bytes.append(contentsOf: [0x5c, 0x5c])                       // \\
            case 0x08: bytes.append(contentsOf: [0x5c, UInt8(ascii: "b")])
            case 0x0c: bytes.append(contentsOf: [0x5c, UInt8(ascii: "f")])
            case 0x0a: bytes.append(contentsOf: [0x5c, UInt8(ascii: "n")])
            case 0x0d: bytes.append(contentsOf: [0x5c, UInt8(ascii: "r")])
            case 0x09: bytes.append(contentsOf: [0x5c, UInt8(ascii: "t")])
            case 0x00..<0x20, 0x3c, 0x3e, 0x26:                                    // controls, < > &
                let b = UInt8(scalar.value)
                bytes.append(contentsOf: [0x5c, UInt8(ascii: "u"), 0x30, 0x30, Self.hex[Int(b >> 4)], Self.hex[Int(b & 0xf)]])
            case 0x2028, 0x2029:
                bytes.append(contentsOf: Array("\\u202".utf8))
                bytes.append(Self.hex[Int(scalar.value & 0xf)])
            default:
                UTF8.encode(scalar) { bytes.append($0) }
            }
        }
        bytes.append(UInt8(ascii: "\""))
    }
}
