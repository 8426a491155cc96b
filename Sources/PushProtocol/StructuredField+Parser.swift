import PushCrypto

extension StructuredField {
    /// Parses a Dictionary field value (RFC 8941 §4.2.2). A key that appears twice is refused
    /// rather than resolved "last wins": for signature labels that ambiguity is an attack surface.
    public static func parseDictionary(_ text: String) throws(ParseError) -> Dictionary {
        var parser = Parser(text)
        parser.skipSpaces()
        var result: Dictionary = []
        if parser.atEnd { return result }
        while true {
            let key = try parser.parseKey()
            if result.contains(where: { $0.key == key }) { throw ParseError(description: "duplicate key \(key)") }
            let member: Member
            if parser.consume(UInt8(ascii: "=")) {
                member = try parser.parseItemOrInnerList()
            } else {
                member = .item(Item(.boolean(true), parameters: try parser.parseParameters()))
            }
            result.append((key, member))
            parser.skipOWS()
            if parser.atEnd { return result }
            guard parser.consume(UInt8(ascii: ",")) else { throw parser.error("expected ','") }
            parser.skipOWS()
            if parser.atEnd { throw parser.error("trailing ','") }
        }
    }
}

/// A cursor over the ASCII bytes of one field value.
private struct Parser {
    let bytes: [UInt8]
    var index = 0

    init(_ text: String) { bytes = Array(text.utf8) }

    var atEnd: Bool { index >= bytes.count }
    var current: UInt8? { atEnd ? nil : bytes[index] }

    func error(_ message: String) -> StructuredField.ParseError {
        StructuredField.ParseError(description: "\(message) at offset \(index)")
    }

    mutating func consume(_ byte: UInt8) -> Bool {
        guard current == byte else { return false }
        index += 1
        return true
    }

    mutating func skipSpaces() { while current == 0x20 { index += 1 } }
    mutating func skipOWS() { while current == 0x20 || current == 0x09 { index += 1 } }

    static func isLowerAlpha(_ c: UInt8) -> Bool { c >= 0x61 && c <= 0x7a }
    static func isDigit(_ c: UInt8) -> Bool { c >= 0x30 && c <= 0x39 }
    static func isAlpha(_ c: UInt8) -> Bool { isLowerAlpha(c) || (c >= 0x41 && c <= 0x5a) }

    mutating func parseKey() throws(StructuredField.ParseError) -> String {
        guard let first = current, Self.isLowerAlpha(first) || first == UInt8(ascii: "*") else {
            throw error("expected a key")
        }
        let start = index
        while let c = current, Self.isLowerAlpha(c) || Self.isDigit(c) || "_-.*".utf8.contains(c) { index += 1 }
        return String(decoding: bytes[start..<index], as: UTF8.self)
    }

    mutating func parseItemOrInnerList() throws(StructuredField.ParseError) -> StructuredField.Member {
        if current == UInt8(ascii: "(") { return .innerList(try parseInnerList()) }
        return .item(try parseItem())
    }

    mutating func parseInnerList() throws(StructuredField.ParseError) -> StructuredField.InnerList {
        guard consume(UInt8(ascii: "(")) else { throw error("expected '('") }
        var items: [StructuredField.Item] = []
        while true {
            skipSpaces()
            if consume(UInt8(ascii: ")")) {
                return StructuredField.InnerList(items, parameters: try parseParameters())
            }
            items.append(try parseItem())
            guard current == 0x20 || current == UInt8(ascii: ")") else { throw error("expected ' ' or ')'") }
        }
    }

    mutating func parseItem() throws(StructuredField.ParseError) -> StructuredField.Item {
        let value = try parseBareItem()
        return StructuredField.Item(value, parameters: try parseParameters())
    }

    mutating func parseParameters() throws(StructuredField.ParseError) -> StructuredField.Parameters {
        var parameters: StructuredField.Parameters = []
        while consume(UInt8(ascii: ";")) {
            skipSpaces()
            let key = try parseKey()
            let value: StructuredField.BareItem = consume(UInt8(ascii: "=")) ? try parseBareItem() : .boolean(true)
            if let existing = parameters.firstIndex(where: { $0.key == key }) {
                parameters[existing].value = value  // RFC 8941 §4.2.3.2: the last value wins
            } else {
                parameters.append((key, value))
            }
        }
        return parameters
    }

    mutating func parseBareItem() throws(StructuredField.ParseError) -> StructuredField.BareItem {
        guard let c = current else { throw error("expected an item") }
        if c == UInt8(ascii: "-") || Self.isDigit(c) { return try parseNumber() }
        if c == UInt8(ascii: "*") || Self.isAlpha(c) { return parseToken() }
        switch c {
        case UInt8(ascii: "\""): return try parseString()
        case UInt8(ascii: ":"): return try parseBytes()
        case UInt8(ascii: "?"): return try parseBoolean()
        default: throw error("unexpected character")
        }
    }

    mutating func parseNumber() throws(StructuredField.ParseError) -> StructuredField.BareItem {
        let start = index
        _ = consume(UInt8(ascii: "-"))
        var digits = 0, fraction = -1
        while let c = current {
            if Self.isDigit(c) {
                digits += 1
                if fraction >= 0 { fraction += 1 }
            } else if c == UInt8(ascii: "."), fraction < 0 {
                fraction = 0
            } else {
                break
            }
            index += 1
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if fraction < 0 {
            guard digits >= 1, digits <= 15, let n = Int64(text) else { throw error("bad integer") }
            return .integer(n)
        }
        guard fraction >= 1, fraction <= 3, digits - fraction >= 1, digits - fraction <= 12 else {
            throw error("bad decimal")
        }
        return .decimal(text)
    }

    mutating func parseString() throws(StructuredField.ParseError) -> StructuredField.BareItem {
        index += 1
        var out: [UInt8] = []
        while let c = current {
            index += 1
            if c == UInt8(ascii: "\\") {
                guard let next = current, next == UInt8(ascii: "\"") || next == UInt8(ascii: "\\") else {
                    throw error("bad escape")
                }
                out.append(next)
                index += 1
            } else if c == UInt8(ascii: "\"") {
                return .string(String(decoding: out, as: UTF8.self))
            } else if c < 0x20 || c > 0x7e {
                throw error("non-printable character in string")
            } else {
                out.append(c)
            }
        }
        throw error("unterminated string")
    }

    mutating func parseToken() -> StructuredField.BareItem {
        let start = index
        while let c = current, Self.isAlpha(c) || Self.isDigit(c) || ":/!#$%&'*+-.^_`|~".utf8.contains(c) { index += 1 }
        return .token(String(decoding: bytes[start..<index], as: UTF8.self))
    }

    mutating func parseBytes() throws(StructuredField.ParseError) -> StructuredField.BareItem {
        index += 1
        let start = index
        while let c = current, c != UInt8(ascii: ":") {
            guard Self.isAlpha(c) || Self.isDigit(c) || "+/=".utf8.contains(c) else { throw error("bad base64") }
            index += 1
        }
        guard consume(UInt8(ascii: ":")) else { throw error("unterminated byte sequence") }
        let text = String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
        do {
            return .bytes(try Base64.decode(text))
        } catch {
            throw self.error("bad base64")
        }
    }

    mutating func parseBoolean() throws(StructuredField.ParseError) -> StructuredField.BareItem {
        index += 1
        if consume(UInt8(ascii: "1")) { return .boolean(true) }
        if consume(UInt8(ascii: "0")) { return .boolean(false) }
        throw error("bad boolean")
    }
}
