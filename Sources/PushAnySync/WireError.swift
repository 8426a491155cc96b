/// Why bytes from an any-sync peer were refused. Every layer's parser throws one of these; the
/// connection that sent them is closed and nothing else.
package enum AnySyncWireError: Error, Equatable, Sendable, CustomStringConvertible {
    /// The input ended inside a value.
    case truncated
    /// A value is malformed (the text names which).
    case malformed(String)
    /// A frame or message is over its limit.
    case tooLarge(String)

    package var description: String {
        switch self {
        case .truncated: return "truncated input"
        case .malformed(let what): return "malformed: \(what)"
        case .tooLarge(let what): return "too large: \(what)"
        }
    }
}
