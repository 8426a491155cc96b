#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A request body read into a flat array of nodes by a strict reader, for `TapeDecoder`.
///
/// The reader accepts only a subset of what Foundation's `JSONDecoder` accepts, so that whatever
/// it reads Foundation reads the same way; anything outside the subset makes `read` return nil and
/// `WireDecoder` decodes the body the Foundation way instead (errors included). Outside the subset:
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
        var reader = Reader(bytes: UnsafeBufferPointer(copy))
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

/// Recursive descent over the body; every `mutating` step returns false when the input leaves the subset.
private struct Reader {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0
    var nodes: [JSONTape.Node] = []

    init(bytes: UnsafeBufferPointer<UInt8>) {
        self.bytes = bytes
        nodes.reserveCapacity(32)
    }

    mutating func document() -> [JSONTape.Node]? {
        skipWhitespace()
        guard value(depth: 1) else { return nil }
        skipWhitespace()
        return position == bytes.count ? nodes : nil
    }

    private var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    private mutating func skipWhitespace() {
        while let byte = current, byte == 0x20 || byte == 0x0a || byte == 0x0d || byte == 0x09 { position += 1 }
    }

    private mutating func value(depth: Int) -> Bool {
        guard depth <= JSONTape.maxDepth, let byte = current else { return false }
        switch byte {
        case UInt8(ascii: "{"): return object(depth: depth)
        case UInt8(ascii: "["): return array(depth: depth)
        case UInt8(ascii: "\""): return string(isKey: false)
        case UInt8(ascii: "t"): return literal("true", .true)
        case UInt8(ascii: "f"): return literal("false", .false)
        case UInt8(ascii: "n"): return literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): return number()
        default: return false
        }
    }

    private mutating func open(_ kind: JSONTape.Kind) -> Int {
        nodes.append(JSONTape.Node(kind: kind, start: Int32(position), end: Int32(position), count: 0, next: 0))
        position += 1
        return nodes.count - 1
    }

    private mutating func close(_ index: Int, count: Int) {
        nodes[index].count = Int32(count)
        nodes[index].next = Int32(nodes.count)
    }

    private mutating func object(depth: Int) -> Bool {
        let index = open(.object)
        skipWhitespace()
        var count = 0
        if current == UInt8(ascii: "}") {
            position += 1
            close(index, count: 0)
            return true
        }
        while true {
            guard count < JSONTape.maxMembers, current == UInt8(ascii: "\"") else { return false }
            let key = nodes.count
            guard string(isKey: true), !isRepeated(key: key, in: index, before: count) else { return false }
            count += 1
            skipWhitespace()
            guard current == UInt8(ascii: ":") else { return false }
            position += 1
            skipWhitespace()
            guard value(depth: depth + 1) else { return false }
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "}"):
                position += 1
                close(index, count: count)
                return true
            default:
                return false
            }
        }
    }

    private mutating func array(depth: Int) -> Bool {
        let index = open(.array)
        skipWhitespace()
        var count = 0
        if current == UInt8(ascii: "]") {
            position += 1
            close(index, count: 0)
            return true
        }
        while true {
            guard value(depth: depth + 1) else { return false }
            count += 1
            skipWhitespace()
            switch current {
            case UInt8(ascii: ","):
                position += 1
                skipWhitespace()
            case UInt8(ascii: "]"):
                position += 1
                close(index, count: count)
                return true
            default:
                return false
            }
        }
    }

    /// Whether key node `key` repeats one of the `count` keys before it in object node `object`.
    private func isRepeated(key: Int, in object: Int, before count: Int) -> Bool {
        let text = nodes[key]
        let length = Int(text.end - text.start)
        var other = object + 1
        for _ in 0..<count {
            let earlier = nodes[other]
            if Int(earlier.end - earlier.start) == length,
               memcmp(bytes.baseAddress! + Int(earlier.start), bytes.baseAddress! + Int(text.start), length) == 0 {
                return true
            }
            other = Int(nodes[other + 1].next)
        }
        return false
    }

    private mutating func literal(_ text: StaticString, _ kind: JSONTape.Kind) -> Bool {
        let count = text.utf8CodeUnitCount
        guard bytes.count - position >= count else { return false }
        for offset in 0..<count where bytes[position + offset] != text.utf8Start[offset] { return false }
        nodes.append(JSONTape.Node(kind: kind, start: Int32(position), end: Int32(position + count), count: 0,
                                   next: Int32(nodes.count + 1)))
        position += count
        return true
    }

    private mutating func number() -> Bool {
        let start = position
        if current == UInt8(ascii: "-") { position += 1 }
        let digitsStart = position
        guard let first = current, isDigit(first) else { return false }
        position += 1
        if first != UInt8(ascii: "0") { skipDigits() }
        var integer = position - digitsStart <= 18
        if current == UInt8(ascii: ".") {
            position += 1
            guard let byte = current, isDigit(byte) else { return false }
            skipDigits()
            integer = false
        }
        if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
            position += 1
            if current == UInt8(ascii: "+") || current == UInt8(ascii: "-") { position += 1 }
            guard let byte = current, isDigit(byte) else { return false }
            skipDigits()
            integer = false
        }
        nodes.append(JSONTape.Node(kind: integer ? .integer : .number, start: Int32(start), end: Int32(position), count: 0,
                                   next: Int32(nodes.count + 1)))
        return true
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private mutating func skipDigits() {
        while let byte = current, isDigit(byte) { position += 1 }
    }

    /// A string at `position` (on its quote). Keys must be plain ASCII without escapes.
    private mutating func string(isKey: Bool) -> Bool {
        position += 1
        let start = position
        var escaped = false
        while true {
            // Plain printable ASCII, the bulk of every body, in a tight loop.
            var scan = position
            while scan < bytes.count {
                let byte = bytes[scan]
                guard byte >= 0x20, byte < 0x80, byte != UInt8(ascii: "\""), byte != UInt8(ascii: "\\") else { break }
                scan += 1
            }
            position = scan
            guard let byte = current else { return false }
            switch byte {
            case UInt8(ascii: "\""):
                nodes.append(JSONTape.Node(kind: escaped ? .escapedString : .string, start: Int32(start), end: Int32(position),
                                           count: 0, next: Int32(nodes.count + 1)))
                position += 1
                return true
            case UInt8(ascii: "\\"):
                guard !isKey, escape() else { return false }
                escaped = true
            case 0..<0x20:
                return false
            case 0x80...:
                guard !isKey, utf8Sequence() else { return false }
            default:
                position += 1
            }
        }
    }

    /// One escape at `position` (on its backslash); a `\u` high surrogate must be followed by a `\u` low one.
    private mutating func escape() -> Bool {
        position += 1
        guard let byte = current else { return false }
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            position += 1
            return true
        case UInt8(ascii: "u"):
            position += 1
            guard let unit = hex4() else { return false }
            switch unit {
            case 0xD800...0xDBFF:
                guard current == UInt8(ascii: "\\") else { return false }
                position += 1
                guard current == UInt8(ascii: "u") else { return false }
                position += 1
                guard let low = hex4(), (0xDC00...0xDFFF).contains(low) else { return false }
                return true
            case 0xDC00...0xDFFF:
                return false
            default:
                return true
            }
        default:
            return false
        }
    }

    private mutating func hex4() -> UInt16? {
        guard bytes.count - position >= 4 else { return nil }
        var value: UInt16 = 0
        for _ in 0..<4 {
            guard let digit = JSONTape.hexValue(bytes[position]) else { return nil }
            value = value << 4 | UInt16(digit)
            position += 1
        }
        return value
    }

    /// One well-formed UTF-8 sequence of 2–4 bytes at `position` (RFC 3629: no overlong forms,
    /// no surrogates, nothing past U+10FFFF).
    private mutating func utf8Sequence() -> Bool {
        let lead = bytes[position]
        let length: Int
        var low: UInt8 = 0x80
        var high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return false
        }
        guard bytes.count - position >= length else { return false }
        let second = bytes[position + 1]
        guard second >= low && second <= high else { return false }
        for offset in 2..<max(2, length) where bytes[position + offset] & 0xC0 != 0x80 { return false }
        position += length
        return true
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
