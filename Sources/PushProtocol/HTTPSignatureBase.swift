/// The RFC 9421 signature base: one line per covered component, then `@signature-params`.
///
/// General-purpose: any component list with its resolved values, so the RFC's own vectors can be
/// rebuilt byte for byte; `HTTPSignatureProfile` picks the components pushnode requires.
///
/// - SeeAlso: RFC 9421 §2.5 (creating the signature base).
public struct HTTPSignatureBase: Sendable, Equatable {
    /// One covered component: its identifier (a structured-field string, possibly with
    /// parameters, e.g. `"@method"` or `"content-digest"`) and its resolved value.
    public struct Component: Sendable, Equatable {
        public var name: String
        public var value: String

        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// The exact bytes that are signed (UTF-8 of `text`).
    public let text: String

    /// Builds the base. `signatureParams` carries the covered component identifiers as its items
    /// (in the same order as `components`) and the signature parameters (`created`, `keyid`, …).
    public init(components: [Component], signatureParams: StructuredField.InnerList) throws(HTTPSignatureError) {
        var lines: [String] = []
        lines.reserveCapacity(components.count + 1)
        for component in components {
            // Scalars, not Characters: "\r\n" is one Character equal to neither.
            guard !component.value.unicodeScalars.contains(where: { $0 == "\n" || $0 == "\r" }) else {
                throw .malformed("component \(component.name) has a line break in its value")
            }
            lines.append(StructuredField.BareItem.string(component.name).serialized + ": " + component.value)
        }
        lines.append("\"@signature-params\": " + signatureParams.serialized)
        text = lines.joined(separator: "\n")
    }

    public var bytes: [UInt8] { Array(text.utf8) }
}

extension HTTPSignatureBase.Component {
    /// `@method`: the request method as sent (RFC 9421 §2.2.1).
    public static func method(_ method: String) -> Self { Self(name: "@method", value: method) }
    /// `@path`: the absolute path without the query; an empty path is `/` (RFC 9421 §2.2.6).
    public static func path(_ path: String) -> Self { Self(name: "@path", value: path.isEmpty ? "/" : path) }
    /// `@query`: `?` followed by the raw query string (RFC 9421 §2.2.7).
    public static func query(_ query: String) -> Self { Self(name: "@query", value: "?" + query) }
    /// A header field: its value with surrounding whitespace removed (RFC 9421 §2.1).
    public static func field(_ name: String, _ value: String) -> Self {
        Self(name: name.lowercased(), value: value.trimmingOWS())
    }
}

extension String {
    /// Removes leading and trailing spaces and tabs (HTTP optional whitespace).
    func trimmingOWS() -> String {
        var scalars = Substring(self)
        while let first = scalars.first, first == " " || first == "\t" { scalars = scalars.dropFirst() }
        while let last = scalars.last, last == " " || last == "\t" { scalars = scalars.dropLast() }
        return String(scalars)
    }
}
