#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `JSONTape`'s reader: recursive descent over the body, appending nodes; every step returns false
/// when the input leaves the subset `JSONTape` describes.
struct JSONTapeReader {
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
        case UInt8(ascii: "{"): return container(.object, depth: depth)
        case UInt8(ascii: "["): return container(.array, depth: depth)
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

    /// At `closing`, the container `index` ends with `count` children: true once it is closed.
    private mutating func closes(_ closing: UInt8, _ index: Int, count: Int) -> Bool {
        guard current == closing else { return false }
        position += 1
        close(index, count: count)
        return true
    }

    /// After a member or element: a `,` (true: another follows) or else false; the caller has
    /// checked for its closing bracket first.
    private mutating func comma() -> Bool {
        guard current == UInt8(ascii: ",") else { return false }
        position += 1
        skipWhitespace()
        return true
    }

    /// An object or an array: after the opening bracket, members (a key, `:`, a value) or elements
    /// (a value) separated by commas up to the closing bracket. An object has at most `maxMembers`
    /// members, and no key twice.
    private mutating func container(_ kind: JSONTape.Kind, depth: Int) -> Bool {
        let isObject = kind == .object
        let closing = isObject ? UInt8(ascii: "}") : UInt8(ascii: "]")
        let index = open(kind)
        skipWhitespace()
        var count = 0
        if closes(closing, index, count: 0) { return true }
        while true {
            if isObject {
                guard count < JSONTape.maxMembers, memberKey(in: index, before: count) else { return false }
            }
            guard value(depth: depth + 1) else { return false }
            count += 1
            skipWhitespace()
            if closes(closing, index, count: count) { return true }
            guard comma() else { return false }
        }
    }

    /// A member's key and colon, up to its value: a key that repeats none of the `count` keys
    /// before it in object node `object`.
    private mutating func memberKey(in object: Int, before count: Int) -> Bool {
        guard current == UInt8(ascii: "\"") else { return false }
        let key = nodes.count
        guard string(isKey: true), !isRepeated(key: key, in: object, before: count) else { return false }
        skipWhitespace()
        guard current == UInt8(ascii: ":") else { return false }
        position += 1
        skipWhitespace()
        return true
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
