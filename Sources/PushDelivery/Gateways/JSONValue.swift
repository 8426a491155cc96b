import PushSupport

/// A JSON value with ordered object members, written compactly and deterministically.
///
/// The gateways write their bodies with this rather than `JSONSerialization`, which on Linux
/// escapes every `/` (base64 is full of them: ~3% more bytes against 4 KB provider limits)
/// and does not keep member order. `null` and fractional numbers exist for documents the node
/// carries but does not define (a Matrix event's `content`, a pusher's `default_payload`).
package enum JSONValue: Sendable {
    case null
    case string(String)
    case int(Int)
    case double(Double)
    case bool(Bool)
    case array([JSONValue])
    case object([(String, JSONValue)])
    /// An object of the members `first`, then members already written (`DataKeys.Rendered`).
    case renderedObject(first: [(String, JSONValue)] = [], [UInt8])

    /// An object of string members.
    static func strings(_ pairs: [(String, String)]) -> JSONValue {
        .object(pairs.map { ($0.0, .string($0.1)) })
    }

    package var bytes: [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(512)
        write(to: &out)
        return out
    }

    func write(to out: inout [UInt8]) {
        switch self {
        case .null:
            out.append(contentsOf: "null".utf8)
        case .string(let text):
            Self.writeString(text, to: &out)
        case .int(let number):
            out.append(contentsOf: String(number).utf8)
        case .double(let number):
            // JSON has no NaN or infinity; a decoded document never holds them.
            out.append(contentsOf: (number.isFinite ? "\(number)" : "null").utf8)
        case .bool(let flag):
            out.append(contentsOf: (flag ? "true" : "false").utf8)
        case .array(let elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                element.write(to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            out.append(UInt8(ascii: "{"))
            Self.writeMembers(members, to: &out)
            out.append(UInt8(ascii: "}"))
        case .renderedObject(let first, let written):
            out.append(UInt8(ascii: "{"))
            Self.writeMembers(first, to: &out)
            if !first.isEmpty && !written.isEmpty { out.append(UInt8(ascii: ",")) }
            out.append(contentsOf: written)
            out.append(UInt8(ascii: "}"))
        }
    }

    /// `"key":value` pairs, comma-separated, without the braces.
    static func writeMembers(_ members: [(String, JSONValue)], to out: inout [UInt8]) {
        for (index, (key, value)) in members.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            writeString(key, to: &out)
            out.append(UInt8(ascii: ":"))
            value.write(to: &out)
        }
    }

    /// RFC 8259 §7: escape `"`, `\` and control characters; everything else as UTF-8. Most
    /// strings (base64 payloads, tokens) need no escape and are copied in one piece.
    private static func writeString(_ text: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var text = text
        let plain = text.withUTF8 { bytes in
            for byte in bytes where needsEscape(byte) { return false }
            out.append(contentsOf: bytes)
            return true
        }
        if !plain {
            for byte in text.utf8 { writeEscaped(byte, to: &out) }
        }
        out.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func writeEscaped(_ byte: UInt8, to out: inout [UInt8]) {
        switch byte {
        case UInt8(ascii: "\""): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\"")])
        case UInt8(ascii: "\\"): out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "\\")])
        case 0x0A: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "n")])
        case 0x0D: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "r")])
        case 0x09: out.append(contentsOf: [UInt8(ascii: "\\"), UInt8(ascii: "t")])
        case 0x00..<0x20:
            let hex = Array("0123456789abcdef".utf8)
            out.append(contentsOf: Array("\\u00".utf8))
            out.append(hex[Int(byte >> 4)])
            out.append(hex[Int(byte & 0x0f)])
        default: out.append(byte)
        }
    }
}
