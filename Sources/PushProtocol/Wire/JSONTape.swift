#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request body read into a flat array of nodes by a strict reader, for `TapeDecoder`.
///
/// The reader accepts only a subset of what Foundation's `JSONDecoder` accepts, so that whatever
/// it reads Foundation reads the same way; anything outside the subset makes `read` return nil and
/// `JSON.decode` decodes the body the Foundation way instead (errors included). Outside the subset:
/// anything RFC 8259 forbids (Foundation tolerates some of it in fields nobody decodes, e.g. `01`
/// or a bad escape), invalid UTF-8, a lone surrogate escape, a byte-order mark, object keys that are
/// not plain ASCII (Foundation matches keys as Swift strings, under canonical equivalence: `"\u212A"`
/// is `"K"`) or that repeat within one object (Foundation keeps the first), more than
/// `maxMembers` members in one object, nesting deeper than `maxDepth` (Foundation's limit is 512),
/// and bodies over `maxBytes` (bounding the node array; hot bodies are a few KiB).
final class JSONTape {
    static let maxBytes = 256 * 1024
    static let maxDepth = 64
    static let maxMembers = 64

    enum Kind: UInt8 {
        case object, array
        /// A string without escapes: its bytes are its UTF-8.
        case string
        case escapedString
        /// `-?(0|[1-9][0-9]*)`, at most 18 digits: fits an `Int` on every platform the node runs on.
        case integer
        /// Any other number (fraction, exponent, or longer).
        case number
        case `true`, `false`, null
    }

    struct Node {
        var kind: Kind
        /// Strings: the bytes between the quotes; numbers: the number's text.
        var start: Int32
        var end: Int32
        /// Objects: members (each a key node followed by its value's subtree); arrays: elements.
        var count: Int32
        /// The index of the first node after this one's subtree.
        var next: Int32
    }

    /// The body (a copy, owned, so nodes can point into it for the tape's lifetime).
    let bytes: UnsafeMutableBufferPointer<UInt8>
    let nodes: [Node]
    /// Set by `TapeDecoder` when it declines a request (a type, value or call it does not serve).
    var declined = false

    private init(bytes: UnsafeMutableBufferPointer<UInt8>, nodes: [Node]) {
        self.bytes = bytes
        self.nodes = nodes
    }

    deinit { bytes.deallocate() }

    /// The tape of `body`, or nil when the body is outside the reader's subset.
    static func read(_ body: [UInt8]) -> JSONTape? {
        guard !body.isEmpty, body.count <= maxBytes else { return nil }
        let copy = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: body.count)
        _ = copy.initialize(from: body)
        var reader = JSONTapeReader(bytes: UnsafeBufferPointer(copy))
        guard let nodes = reader.document() else {
            copy.deallocate()
            return nil
        }
        return JSONTape(bytes: copy, nodes: nodes)
    }

    /// The raw bytes of node `index` (string content or number text).
    func raw(_ index: Int) -> UnsafeBufferPointer<UInt8> {
        let node = nodes[index]
        return UnsafeBufferPointer(rebasing: bytes[Int(node.start)..<Int(node.end)])
    }
}

extension JSONTape {
    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }

    /// The text of string node `index`, escapes resolved (the reader checked them).
    func string(_ index: Int) -> String {
        let raw = raw(index)
        guard nodes[index].kind == .escapedString else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = 0
        func hex4(at offset: Int) -> UInt32 {
            (0..<4).reduce(0) { $0 << 4 | UInt32(Self.hexValue(raw[offset + $1])!) }
        }
        while i < raw.count {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\") else {
                out.append(byte)
                i += 1
                continue
            }
            let kind = raw[i + 1]
            i += 2
            switch kind {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0c)
            case UInt8(ascii: "n"): out.append(0x0a)
            case UInt8(ascii: "r"): out.append(0x0d)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(at: i)
                i += 4
                if (0xD800...0xDBFF).contains(scalar) {
                    scalar = 0x10000 + ((scalar - 0xD800) << 10) + (hex4(at: i + 2) - 0xDC00)
                    i += 6
                }
                out.append(contentsOf: Unicode.Scalar(scalar)!.utf8)
            default: out.append(kind)  // " \ /
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The value of integer node `index`.
    func integer(_ index: Int) -> Int {
        let raw = raw(index)
        let negative = raw[0] == UInt8(ascii: "-")
        var value = 0
        for byte in raw.dropFirst(negative ? 1 : 0) { value = value * 10 + Int(byte - UInt8(ascii: "0")) }
        return negative ? -value : value
    }

    /// Whether the text of key node `index` is `name` (UTF-8).
    func key(_ index: Int, is name: UnsafeBufferPointer<UInt8>) -> Bool {
        let node = nodes[index]
        return Int(node.end - node.start) == name.count
            && (name.isEmpty || memcmp(name.baseAddress!, bytes.baseAddress! + Int(node.start), name.count) == 0)
    }
}
