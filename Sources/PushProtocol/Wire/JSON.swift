import Foundation

/// The package's one JSON namespace: every body the node, the client and the tools write goes
/// through `encode`, every body they read through `decode`.
///
/// - `encode`: compact, keys in byte order, `/` unescaped. A flat value (one object of strings,
///   ints and bools: the hot answers) is written by `FlatJSONEncoder` without a `JSONEncoder`;
///   anything else, and whatever it declines, by Foundation (`foundationEncode`), byte for byte
///   alike.
/// - `decode`: strict decoding into the wire types with every failure an `APIError` (not JSON or
///   not an object → 400 `request.malformed`; a required field absent or `null` →
///   `request.missing_field` with `field` its JSON path; a wrong type or bad encoding →
///   `request.invalid_field`). Unknown fields are ignored; paths read like `topics[2].signature`.
///   A body is first read by `TapeDecoder`, which runs the type's own `init(from:)` without a
///   Foundation `JSONDecoder` and declines whatever it cannot answer exactly as Foundation would;
///   a declined body (every invalid one among them) is decoded by `foundationDecode`, whose
///   errors are the answers.
///
/// Tests and the `wire-decoder` fuzz target hold each fast path to its Foundation reference.
public enum JSON {
    /// `value` as compact JSON with sorted keys.
    public static func encode<T: Encodable>(_ value: T) throws -> [UInt8] {
        if let bytes = FlatJSONEncoder.encode(value) { return bytes }
        return try foundationEncode(value)
    }

    /// `value` with its `Date`s written as `formattingDates` says (the status snapshot's RFC 3339
    /// times); a value with dates is never flat, so this is Foundation's path.
    package static func encode<T: Encodable>(_ value: T, formattingDates: @escaping @Sendable (Date) -> String) throws -> [UInt8] {
        try foundationEncode(value) { encoder in
            encoder.dateEncodingStrategy = .custom { date, encoder in
                var container = encoder.singleValueContainer()
                try container.encode(formattingDates(date))
            }
        }
    }

    /// A body the package builds itself (strings, counts, finite numbers: a request, an answer),
    /// which always encodes; `{}` should it ever not, rather than a trap.
    package static func body<T: Encodable>(_ value: T, formattingDates: (@Sendable (Date) -> String)? = nil) -> [UInt8] {
        let bytes = try? formattingDates.map { try encode(value, formattingDates: $0) } ?? encode(value)
        return bytes ?? Array("{}".utf8)
    }

    /// `body` as `T`, every failure an `APIError`.
    public static func decode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
        if let value = TapeDecoder.decode(T.self, from: body) { return value }
        return try foundationDecode(T.self, from: body)
    }

    /// Foundation's encoding: compact, keys sorted, slashes unescaped. The fallback of `encode`
    /// and the reference its fast path is held to.
    package static func foundationEncode<T: Encodable>(_ value: T, configure: (JSONEncoder) -> Void = { _ in }) throws -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.withoutEscapingSlashes, .sortedKeys]
        configure(encoder)
        return Array(try encoder.encode(value))
    }

    /// Foundation's decoding of `body`, failures mapped onto `APIError`s: the fallback of `decode`,
    /// the reference its tape is held to, and the home of every error answer.
    package static func foundationDecode<T: Decodable>(_ type: T.Type, from body: [UInt8]) throws -> T {
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
}
