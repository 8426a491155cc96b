import Foundation
import PushProtocol
import PushSupport

/// Finished tries per provider and outcome since the last summary. The engine logs them every
/// `Configuration.summaryInterval` (a minute by default; `log.summaryInterval`) as one `info`
/// line — `event=delivery_summary seconds=60 total=14 fcm.delivered=12 webpush.retried=2` — and
/// logs nothing for a period in which nothing happened. Fed by the same counts as
/// `pushnode_deliveries_total`, so the two always agree.
final class DeliverySummary: Sendable {
    private struct Period {
        var counts: [Provider: [LaneStateMachine.Outcome: Int]] = [:]
        var started: Double
    }

    private let period: Protected<Period>
    private let monotonic: @Sendable () -> Double

    init(monotonic: @escaping @Sendable () -> Double) {
        self.monotonic = monotonic
        period = Protected(Period(started: monotonic()))
    }

    func add(_ provider: Provider, _ outcome: LaneStateMachine.Outcome, _ count: Int) {
        guard count > 0 else { return }
        period.withLock { $0.counts[provider, default: [:]][outcome, default: 0] += count }
    }

    /// The period's line, or nil when nothing was counted; a new period starts either way.
    func take() -> LogRecord? {
        let now = monotonic()
        let ended = period.withLock { period in
            defer { period = Period(started: now) }
            return period
        }
        var fields: [LogField] = []
        var total = 0
        for provider in Provider.allCases {
            guard let counts = ended.counts[provider] else { continue }
            for outcome in LaneStateMachine.Outcome.allCases {
                guard let n = counts[outcome] else { continue }
                fields.append(LogField("\(provider.rawValue).\(outcome.rawValue)", .int(n)))
                total += n
            }
        }
        guard total > 0 else { return nil }
        let seconds = LogField("seconds", .double((max(0, now - ended.started) * 10).rounded() / 10))
        return LogRecord(.info, "delivery_summary", [seconds, LogField("total", .int(total))] + fields)
    }
}
