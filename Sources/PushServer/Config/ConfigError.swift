/// A configuration that cannot be used: every problem found, each naming its key.
public struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    public var issues: [String]

    public init(_ issues: [String]) { self.issues = issues }

    public var description: String { issues.joined(separator: "\n") }
}
