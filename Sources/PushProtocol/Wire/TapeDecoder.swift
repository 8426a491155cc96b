import Foundation

/// A `Decoder` over a `JSONTape`: the wire types' own `init(from:)` run on it unchanged, so every
/// field rule keeps its one home there and in the `validateShape` methods.
///
/// It answers a call only when it can answer it exactly as Foundation's `JSONDecoder` would. Any
/// other call — a key that is absent, a value of another JSON type, a number that is not a plain
/// integer, a number type other than `Int`, a type Foundation decodes its own way (`Data`, `Date`,
/// `URL`, `Decimal`), `allKeys`, `superDecoder`, even reading `codingPath` (only error paths read it)
/// — marks the tape declined and throws. `decode` then returns nil and `JSON.decode` decodes the
/// body with Foundation, so every error answer (status, code, field, message) is Foundation's and
/// `JSON`'s mapping of it, whatever this decoder does. A declined call the type catches
/// (`try?`) still counts: the flag is checked after a successful decode too.
struct TapeDecoder: Decoder {
    let tape: JSONTape
    let node: Int

    /// The body as `T`, or nil when the reader or the decoder declined it (or `T`'s init threw).
    static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) -> T? {
        guard let tape = JSONTape.read(body), let value = try? tape.decode(T.self, at: 0), !tape.declined else { return nil }
        return value
    }

    var codingPath: [any CodingKey] {
        tape.declined = true
        return []
    }

    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard tape.nodes[node].kind == .object else { throw tape.decline() }
        return KeyedDecodingContainer(TapeKeyedContainer<Key>(tape: tape, node: node))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard tape.nodes[node].kind == .array else { throw tape.decline() }
        return TapeUnkeyedContainer(tape: tape, node: node)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer { TapeSingleValueContainer(tape: tape, node: node) }
}

extension JSONTape {
    /// Thrown by every call `TapeDecoder` declines; never seen outside `TapeDecoder.decode`.
    struct Declined: Error {}

    func decline() -> Declined {
        declined = true
        return Declined()
    }

    func decodeString(_ index: Int) throws -> String {
        let kind = nodes[index].kind
        guard kind == .string || kind == .escapedString else { throw decline() }
        return string(index)
    }

    func decodeInt(_ index: Int) throws -> Int {
        guard nodes[index].kind == .integer else { throw decline() }
        return integer(index)
    }

    func decodeBool(_ index: Int) throws -> Bool {
        switch nodes[index].kind {
        case .true: return true
        case .false: return false
        default: throw decline()
        }
    }

    /// `T` from node `index`: the primitives here, the types Foundation special-cases declined,
    /// every other type through its own `init(from:)`.
    func decode<T: Decodable>(_ type: T.Type, at index: Int) throws -> T {
        if T.self == String.self { return try decodeString(index) as! T }
        if T.self == Int.self { return try decodeInt(index) as! T }
        if T.self == Bool.self { return try decodeBool(index) as! T }
        if T.self == Data.self || T.self == Date.self || T.self == URL.self || T.self == Decimal.self { throw decline() }
        return try T(from: TapeDecoder(tape: self, node: index))
    }

    /// The value node of member `name` of object node `object`, or nil when it has none. A name
    /// that is not ASCII is declined: Foundation would compare it as a Swift string.
    func member(_ name: String, of object: Int) -> Int? {
        var name = name
        return name.withUTF8 { name in
            guard !name.contains(where: { $0 >= 0x80 }) else {
                declined = true
                return nil
            }
            var key = object + 1
            for _ in 0..<nodes[object].count {
                if self.key(key, is: name) { return key + 1 }
                key = Int(nodes[key + 1].next)
            }
            return nil
        }
    }
}

struct TapeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let tape: JSONTape
    let node: Int

    var codingPath: [any CodingKey] {
        tape.declined = true
        return []
    }

    var allKeys: [Key] {
        tape.declined = true
        return []
    }

    func contains(_ key: Key) -> Bool { tape.member(key.stringValue, of: node) != nil }

    private func value(_ key: Key) throws -> Int {
        guard let index = tape.member(key.stringValue, of: node) else { throw tape.decline() }
        return index
    }

    func decodeNil(forKey key: Key) throws -> Bool { tape.nodes[try value(key)].kind == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try tape.decodeBool(value(key)) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try tape.decodeString(value(key)) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try tape.decodeInt(value(key)) }
    // Every other number type, declined: one generic witness each for Codable's per-type requirements.
    func decode<T: FixedWidthInteger & Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw tape.decline() }
    func decode<T: BinaryFloatingPoint & Decodable>(_ type: T.Type, forKey key: Key) throws -> T { throw tape.decline() }
    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T { try tape.decode(T.self, at: value(key)) }

    // What the protocol's default `decodeIfPresent` does (absent or null → nil, else `decode`),
    // with one lookup instead of three.
    private func present(_ key: Key) -> Int? {
        guard let index = tape.member(key.stringValue, of: node), tape.nodes[index].kind != .null else { return nil }
        return index
    }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try present(key).map(tape.decodeBool) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try present(key).map(tape.decodeString) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try present(key).map(tape.decodeInt) }
    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try present(key).map { try tape.decode(T.self, at: $0) }
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws
        -> KeyedDecodingContainer<NestedKey> {
        try TapeDecoder(tape: tape, node: value(key)).container(keyedBy: NestedKey.self)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try TapeDecoder(tape: tape, node: value(key)).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder { throw tape.decline() }
    func superDecoder(forKey key: Key) throws -> any Decoder { throw tape.decline() }
}

struct TapeUnkeyedContainer: UnkeyedDecodingContainer {
    let tape: JSONTape
    let count: Int?
    private(set) var currentIndex = 0
    /// The node of the element at `currentIndex`.
    private var cursor: Int

    init(tape: JSONTape, node: Int) {
        self.tape = tape
        count = Int(tape.nodes[node].count)
        cursor = node + 1
    }

    var codingPath: [any CodingKey] {
        tape.declined = true
        return []
    }

    var isAtEnd: Bool { currentIndex >= count! }

    /// The current element's node, then moves past it.
    private mutating func next() throws -> Int {
        guard !isAtEnd else { throw tape.decline() }
        let index = cursor
        cursor = Int(tape.nodes[index].next)
        currentIndex += 1
        return index
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd else { throw tape.decline() }
        guard tape.nodes[cursor].kind == .null else { return false }
        _ = try next()
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try tape.decodeBool(next()) }
    mutating func decode(_ type: String.Type) throws -> String { try tape.decodeString(next()) }
    mutating func decode(_ type: Int.Type) throws -> Int { try tape.decodeInt(next()) }
    // Every other number type, declined: one generic witness each for Codable's per-type requirements.
    mutating func decode<T: FixedWidthInteger & Decodable>(_ type: T.Type) throws -> T { throw tape.decline() }
    mutating func decode<T: BinaryFloatingPoint & Decodable>(_ type: T.Type) throws -> T { throw tape.decline() }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        // Moved past only on success, like Foundation's.
        guard !isAtEnd else { throw tape.decline() }
        let value = try tape.decode(T.self, at: cursor)
        _ = try next()
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        try TapeDecoder(tape: tape, node: next()).container(keyedBy: NestedKey.self)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        try TapeDecoder(tape: tape, node: next()).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder { throw tape.decline() }
}

struct TapeSingleValueContainer: SingleValueDecodingContainer {
    let tape: JSONTape
    let node: Int

    var codingPath: [any CodingKey] {
        tape.declined = true
        return []
    }

    func decodeNil() -> Bool { tape.nodes[node].kind == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try tape.decodeBool(node) }
    func decode(_ type: String.Type) throws -> String { try tape.decodeString(node) }
    func decode(_ type: Int.Type) throws -> Int { try tape.decodeInt(node) }
    // Every other number type, declined: one generic witness each for Codable's per-type requirements.
    func decode<T: FixedWidthInteger & Decodable>(_ type: T.Type) throws -> T { throw tape.decline() }
    func decode<T: BinaryFloatingPoint & Decodable>(_ type: T.Type) throws -> T { throw tape.decline() }
    func decode<T: Decodable>(_ type: T.Type) throws -> T { try tape.decode(T.self, at: node) }
}
