import PushProtocol
import PushStore
import PushSupport

/// The outbox's depth and oldest entry per provider, as `/metrics` and the status page show them:
/// read from the store at most once per reuse window. The read scans the queue (every recipient
/// chunk and outbox row of a provider): about 1 s at 10M queued deliveries on SQLite
/// (`PushBench growth`, issue 25), and a scrape asked twice, once per gauge. The window is
/// `reuseFactor` times the last read's own duration, so a small queue (a read well under a
/// millisecond) is read afresh each time, and a large one costs at most about one twentieth of a
/// core however often the node is scraped.
package final class QueueStatistics: Sendable {
    private struct Sample {
        /// Monotonic seconds (`EngineClock.monotonic`).
        var readAt: Double
        var reuseFor: Double
        var value: [Provider: OutboxStatistics]
    }

    package static let reuseFactor = 20.0

    private let read: @Sendable () -> [Provider: OutboxStatistics]
    private let monotonic: @Sendable () -> Double
    private let last = Protected<Sample?>(nil)

    package init(read: @escaping @Sendable () -> [Provider: OutboxStatistics], monotonic: @escaping @Sendable () -> Double) {
        self.read = read
        self.monotonic = monotonic
    }

    /// The last read while it is fresh enough, else a new one.
    package func snapshot() -> [Provider: OutboxStatistics] {
        let start = monotonic()
        if let sample = last.withLock({ $0 }), start - sample.readAt < sample.reuseFor { return sample.value }
        let value = read()
        let end = monotonic()
        last.withLock { $0 = Sample(readAt: end, reuseFor: (end - start) * Self.reuseFactor, value: value) }
        return value
    }
}
