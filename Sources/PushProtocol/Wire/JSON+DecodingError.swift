import Foundation

extension JSON {
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
