import PushProtocol
import PushSupport

/// A `JSONValue` read from and written to a document, so a value the node carries but does not
/// define (a Matrix event's `content`, a pusher's `default_payload`) can sit inside a `Codable`
/// type. Object members are sorted by key on the way in: the order a decoder hands them over is
/// not defined, and the bytes written later must not depend on it.
extension JSONValue: Codable, Equatable {
    package init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let elements = try? container.decode([JSONValue].self) {
            self = .array(elements)
        } else {
            let members = try container.decode([String: JSONValue].self)
            self = .object(members.sorted { $0.key < $1.key }.map { ($0.key, $0.value) })
        }
    }

    package func encode(to encoder: any Encoder) throws {
        switch self {
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .string(let text): try Self.encode(single: text, to: encoder)
        case .int(let number): try Self.encode(single: number, to: encoder)
        case .double(let number): try Self.encode(single: number, to: encoder)
        case .bool(let flag): try Self.encode(single: flag, to: encoder)
        case .array(let elements):
            var container = encoder.unkeyedContainer()
            for element in elements { try container.encode(element) }
        case .object(let members):
            var container = encoder.container(keyedBy: NameKey.self)
            for (key, value) in members { try container.encode(value, forKey: NameKey(key)) }
        case .renderedObject:
            // Never on a request's path (gateways write `bytes`): read the written members back.
            try JSON.decode(JSONValue.self, from: bytes).encode(to: encoder)
        }
    }

    private static func encode(single value: some Encodable, to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(value)
    }

    package static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.null, .null): return true
        case (.string(let a), .string(let b)): return a == b
        case (.int(let a), .int(let b)): return a == b
        case (.double(let a), .double(let b)): return a == b
        case (.bool(let a), .bool(let b)): return a == b
        case (.array(let a), .array(let b)): return a == b
        case (.object(let a), .object(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.renderedObject(let aFirst, let a), .renderedObject(let bFirst, let b)):
            return a == b && JSONValue.object(aFirst) == JSONValue.object(bFirst)
        default: return false
        }
    }

    /// The members of an object; nil for any other value.
    package var members: [(String, JSONValue)]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The text of a string; nil for any other value.
    package var text: String? {
        if case .string(let text) = self { return text }
        return nil
    }
}
