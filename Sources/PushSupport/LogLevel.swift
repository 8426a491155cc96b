/// How much a log line matters; `log.level` drops every line below the one configured.
package enum LogLevel: String, Sendable, Comparable, CaseIterable {
    /// Per-delivery detail (a delivered push): off by default.
    case debug
    case info
    case warn
    case error

    private var rank: Int {
        switch self {
        case .debug: 0
        case .info: 1
        case .warn: 2
        case .error: 3
        }
    }

    package static func < (lhs: LogLevel, rhs: LogLevel) -> Bool { lhs.rank < rhs.rank }
}
