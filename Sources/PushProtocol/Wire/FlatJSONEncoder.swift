/// Writes a flat value — one object of `String`, `Bool` and `Int` members, the shape of the hot
/// answers (`{"duplicate","id","queued"}`) — byte for byte as `JSON.foundationEncode` would
/// (compact, keys in byte order, slashes unescaped), without a `JSONEncoder` per response.
///
/// Like `TapeDecoder` it declines what it cannot write exactly as Foundation would — nesting, any
/// other type, a key that is not ASCII or comes twice, a string with a control character or a
/// non-ASCII one — and `JSON.encode` then encodes with Foundation. The value's own `encode(to:)`
/// stays the one home of its wire shape.
struct FlatJSONEncoder: Encoder {
    /// The members written so far, and whether a call was declined.
    final class Members {
        var pairs: [(key: String, json: [UInt8])] = []
        var declined = false
        var opened = false
    }

    let members = Members()

    /// `value` as compact JSON, or nil when declined.
    static func encode<T: Encodable>(_ value: T) -> [UInt8]? {
        let encoder = FlatJSONEncoder()
        do { try value.encode(to: encoder) } catch { return nil }
        let members = encoder.members
        guard !members.declined, members.opened else { return nil }
        let sorted = members.pairs.sorted { $0.key.utf8.lexicographicallyPrecedes($1.key.utf8) }
        for index in sorted.indices.dropFirst() where sorted[index].key == sorted[index - 1].key { return nil }
        var out: [UInt8] = [UInt8(ascii: "{")]
        out.reserveCapacity(64)
        for (index, pair) in sorted.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out.append(UInt8(ascii: "\""))
            out += pair.key.utf8
            out += [UInt8(ascii: "\""), UInt8(ascii: ":")]
            out += pair.json
        }
        out.append(UInt8(ascii: "}"))
        return out
    }

    var codingPath: [any CodingKey] { [] }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if members.opened { members.declined = true }
        members.opened = true
        return KeyedEncodingContainer(FlatKeyedContainer<Key>(members: members))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        members.declined = true
        return DeclinedContainer(members: members)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        members.declined = true
        return DeclinedContainer(members: members)
    }

    /// A JSON string literal of `text`, or nil when it holds a byte Foundation escapes in its own way.
    static func literal(_ text: String) -> [UInt8]? {
        var out: [UInt8] = [UInt8(ascii: "\"")]
        out.reserveCapacity(text.utf8.count + 2)
        for byte in text.utf8 {
            switch byte {
            case 0..<0x20, 0x80...: return nil
            case UInt8(ascii: "\""), UInt8(ascii: "\\"): out += [UInt8(ascii: "\\"), byte]
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
        return out
    }
}

/// Thrown by every declined call; never seen outside `FlatJSONEncoder.encode`.
private struct Declined: Error {}

private struct FlatKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let members: FlatJSONEncoder.Members
    var codingPath: [any CodingKey] { [] }

    private func add(_ key: Key, _ json: [UInt8]?) throws {
        guard let json, key.stringValue.utf8.allSatisfy({ $0 < 0x80 }) else { throw decline() }
        members.pairs.append((key.stringValue, json))
    }

    private func decline() -> Declined {
        members.declined = true
        return Declined()
    }

    mutating func encode(_ value: String, forKey key: Key) throws { try add(key, FlatJSONEncoder.literal(value)) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { try add(key, Array((value ? "true" : "false").utf8)) }
    mutating func encode(_ value: Int, forKey key: Key) throws { try add(key, Array(String(value).utf8)) }
    mutating func encodeNil(forKey key: Key) throws { throw decline() }
    // Every other number type, declined: one generic witness each for Codable's per-type requirements.
    mutating func encode<T: FixedWidthInteger & Encodable>(_ value: T, forKey key: Key) throws { throw decline() }
    mutating func encode<T: BinaryFloatingPoint & Encodable>(_ value: T, forKey key: Key) throws { throw decline() }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        switch value {
        case let text as String: try encode(text, forKey: key)
        case let flag as Bool: try encode(flag, forKey: key)
        case let number as Int: try encode(number, forKey: key)
        default: throw decline()
        }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key)
        -> KeyedEncodingContainer<NestedKey> {
        members.declined = true
        return KeyedEncodingContainer(FlatKeyedContainer<NestedKey>(members: members))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        members.declined = true
        return DeclinedContainer(members: members)
    }

    mutating func superEncoder() -> any Encoder {
        members.declined = true
        return FlatJSONEncoder()
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        members.declined = true
        return FlatJSONEncoder()
    }
}

/// What a declined unkeyed or single-value container hands out: it refuses everything.
private struct DeclinedContainer: UnkeyedEncodingContainer, SingleValueEncodingContainer {
    let members: FlatJSONEncoder.Members
    var codingPath: [any CodingKey] { [] }
    var count: Int { 0 }

    private func decline() -> Declined {
        members.declined = true
        return Declined()
    }

    mutating func encodeNil() throws { throw decline() }
    mutating func encode<T: Encodable>(_ value: T) throws { throw decline() }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        members.declined = true
        return KeyedEncodingContainer(FlatKeyedContainer<NestedKey>(members: members))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer { self }

    mutating func superEncoder() -> any Encoder {
        members.declined = true
        return FlatJSONEncoder()
    }
}
