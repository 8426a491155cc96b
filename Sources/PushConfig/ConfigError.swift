/// A configuration that cannot be used: every problem found, each naming its key.
package struct ConfigError: Error, Equatable, Sendable, CustomStringConvertible {
    package var issues: [String]

    package init(_ issues: [String]) { self.issues = issues }

    package var description: String { issues.joined(separator: "\n") }
}
