import Foundation

/// Strict JSON decoding of request bodies into the wire types, with every failure an `APIError`:
///
/// - not JSON, or not a JSON object → 400 `request.malformed`;
/// - a required field absent or `null` → 400 `request.missing_field`, `field` = its JSON path;
/// - a field of the wrong type or with a bad encoding → 400 `request.invalid_field`, `field` = its path.
///
/// Unknown fields are ignored. Paths read like `topics[2].signature` or `message.payload`.
///
/// Two readers, one set of rules: a body is first read by `TapeDecoder`, which runs the type's own
/// `init(from:)` without a Foundation `JSONDecoder` per request and declines whatever it cannot
/// answer exactly as Foundation would; a declined body (every invalid one among them) is decoded by
/// `reference`, Foundation's `JSONDecoder`, whose errors are the answers. Tests and the
/// `wire-decoder` fuzz target hold the two to the same values.
public enum WireDecoder {
    public static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        if let value = TapeDecoder.decode(T.self, from: body) { return value }
        return try reference(T.self, from: body)
    }

    /// Foundation's decoding of `body`, failures mapped onto `APIError`s: the home of every error answer.
    package static func reference<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        do {
            return try JSONDecoder().decode(T.self, from: Data(body))
        } catch let error as APIError {
            throw error
        } catch let error as DecodingError {
            throw apiError(for: error)
        } catch {
            throw APIError.malformed("the body is not a JSON object")
        }
    }

    /// Maps a `DecodingError` onto the API's codes using its coding path.
    static func apiError(for error: DecodingError) -> APIError {
        switch error {
        case .keyNotFound(let key, let context):
            return .missing(FieldPath.render(context.codingPath + [key]))
        case .valueNotFound(_, let context):
            guard !context.codingPath.isEmpty else { return .malformed("the body is not a JSON object") }
            return .missing(FieldPath.render(context.codingPath))
        case .typeMismatch(let expected, let context):
            guard !context.codingPath.isEmpty else { return .malformed("the body is not a JSON object") }
            let path = FieldPath.render(context.codingPath)
            return .invalid(path, "\(path) must be \(describe(expected))")
        case .dataCorrupted(let context):
            guard !context.codingPath.isEmpty else { return .malformed("the body is not valid JSON") }
            let path = FieldPath.render(context.codingPath)
            return .invalid(path, "\(path) is not valid")
        @unknown default:
            return .malformed("the body could not be decoded")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: return "a string"
        case is Bool.Type: return "a boolean"
        case is Int.Type, is Int64.Type: return "an integer"
        case is [Any].Type: return "an array"
        default:
            let name = "\(type)"
            if name.hasPrefix("Array") { return "an array" }
            if name.hasPrefix("Dictionary") || name.hasPrefix("KeyedDecodingContainer") { return "an object" }
            return "of another type"
        }
    }
}

/// Renders coding paths as the JSON paths the API reports in `error.field`.
public enum FieldPath {
    /// `[topics, Index 2, signature]` → `topics[2].signature`.
    public static func render(_ path: [any CodingKey]) -> String {
        var out = ""
        for key in path {
            if let index = key.intValue, key.stringValue.hasPrefix("Index ") || key.stringValue == "\(index)" {
                out += "[\(index)]"
            } else {
                if !out.isEmpty { out += "." }
                out += key.stringValue
            }
        }
        return out
    }

    /// The path of `key` inside `container`.
    static func of<K>(_ key: K, in container: KeyedDecodingContainer<K>) -> String {
        render(container.codingPath + [key])
    }
}

/// Encodes response and request bodies as compact JSON: flat values (the hot answers) by
/// `FlatJSONEncoder`, the rest, and whatever it declines, by Foundation (`reference`), byte for
/// byte alike.
public enum WireEncoder {
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        if let bytes = FlatJSONEncoder.encode(value) { return bytes }
        return try reference(value)
    }

    /// Foundation's encoding: compact, keys sorted, slashes unescaped.
    package static func reference<T: Encodable>(_ value: T) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        return Array(try encoder.encode(value))
    }
}
