import PushCrypto

/// The subset of RFC 8941 Structured Field Values that HTTP Message Signatures use:
/// dictionaries whose members are items or inner lists, each with parameters.
///
/// - SeeAlso: RFC 8941 §3 (types), §4.1 (serializing), §4.2 (parsing).
public enum StructuredField {
    /// A bare item (RFC 8941 §3.3). Decimals are kept as their text.
    public enum BareItem: Equatable, Sendable {
        case integer(Int64)
        case decimal(String)
        case string(String)
        case token(String)
        case bytes([UInt8])
        case boolean(Bool)
    }

    /// Ordered `key[=value]` pairs after an item or inner list.
    public typealias Parameters = [(key: String, value: BareItem)]

    /// A bare item with its parameters.
    public struct Item: Sendable {
        public var value: BareItem
        public var parameters: Parameters

        public init(_ value: BareItem, parameters: Parameters = []) {
            self.value = value
            self.parameters = parameters
        }

        /// The value of parameter `key`, when present.
        public func parameter(_ key: String) -> BareItem? { parameters.last { $0.key == key }?.value }
    }

    /// An inner list `( item item … )` with its parameters.
    public struct InnerList: Sendable {
        public var items: [Item]
        public var parameters: Parameters

        public init(_ items: [Item], parameters: Parameters = []) {
            self.items = items
            self.parameters = parameters
        }

        public func parameter(_ key: String) -> BareItem? { parameters.last { $0.key == key }?.value }
    }

    /// A dictionary member: an item or an inner list.
    public enum Member: Sendable {
        case item(Item)
        case innerList(InnerList)
    }

    /// A parsed dictionary, members in field order.
    public typealias Dictionary = [(key: String, member: Member)]

    /// A field value that does not parse as RFC 8941 requires.
    public struct ParseError: Error, Equatable, Sendable, CustomStringConvertible {
        public let description: String
    }
}

// MARK: - Serializing (RFC 8941 §4.1)

extension StructuredField.BareItem {
    /// The serialized form, e.g. `"text"`, `42`, `:AAEC:`, `?1`, `token`.
    public var serialized: String {
        switch self {
        case .integer(let n): return String(n)
        case .decimal(let text): return text
        case .token(let text): return text
        case .bytes(let bytes): return ":" + Base64.encode(bytes) + ":"
        case .boolean(let b): return b ? "?1" : "?0"
        case .string(let text):
            // Most strings (component names, key ids, nonces) need no escape.
            guard text.utf8.contains(where: { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
                return "\"" + text + "\""
            }
            var out = "\""
            for ch in text.unicodeScalars {
                if ch == "\"" || ch == "\\" { out.append("\\") }
                out.unicodeScalars.append(ch)
            }
            return out + "\""
        }
    }
}

extension StructuredField {
    /// Serializes parameters: `;key=value`, with `;key` alone for boolean true.
    public static func serialize(_ parameters: Parameters) -> String {
        var out = ""
        for (key, value) in parameters {
            out += ";" + key
            if value != .boolean(true) { out += "=" + value.serialized }
        }
        return out
    }
}

extension StructuredField.Item {
    public var serialized: String { value.serialized + StructuredField.serialize(parameters) }
}

extension StructuredField.InnerList {
    /// `("a" "b");p=1` — the exact text RFC 9421 puts on the `@signature-params` line.
    public var serialized: String {
        "(" + items.map(\.serialized).joined(separator: " ") + ")" + StructuredField.serialize(parameters)
    }
}
