import Foundation
import PushProtocol
@testable import PushStore
import PushSupport
import Testing
@testable import PushEngine

/// `QueueStatistics`: the store's queue scan is reused for twenty times its own duration, so a
/// cheap read stays fresh and a slow one is not repeated scrape after scrape.
@Suite struct QueueStatisticsTests {
    /// A store read that takes `cost` seconds of the fake monotonic clock and counts itself.
    private final class FakeRead: Sendable {
        let clock = Protected(100.0)
        let reads = Protected(0)
        let cost: Double

        init(cost: Double) { self.cost = cost }

        func read() -> [Provider: OutboxStatistics] {
            let n = reads.withLock { $0 += 1; return $0 }
            clock.withLock { $0 += cost }
            return [.fcm: OutboxStatistics(depth: n, oldestCreatedAt: Date(timeIntervalSince1970: 0))]
        }

        func advance(_ seconds: Double) { clock.withLock { $0 += seconds } }
    }

    private func statistics(_ fake: FakeRead) -> QueueStatistics {
        QueueStatistics(read: { fake.read() }, monotonic: { fake.clock.withLock { $0 } })
    }

    @Test func aSlowReadIsReusedForTwentyTimesItsDurationThenReadAgain() {
        let fake = FakeRead(cost: 1.0)                      // a 1 s scan: 10M queued on SQLite
        let statistics = statistics(fake)
        #expect(statistics.snapshot()[.fcm]?.depth == 1)
        fake.advance(5)
        #expect(statistics.snapshot()[.fcm]?.depth == 1)    // the age gauge of the same scrape, and scrapes 5 s on
        fake.advance(14.9)
        #expect(statistics.snapshot()[.fcm]?.depth == 1)
        #expect(fake.reads.withLock { $0 } == 1)
        fake.advance(0.2)                                   // 20.1 s after the read ended
        #expect(statistics.snapshot()[.fcm]?.depth == 2)
        #expect(fake.reads.withLock { $0 } == 2)
    }

    @Test func aCheapReadIsMadeAfreshOnEveryAsk() {
        let fake = FakeRead(cost: 0.0002)                   // a small queue: 0.2 ms
        let statistics = statistics(fake)
        #expect(statistics.snapshot()[.fcm]?.depth == 1)
        fake.advance(0.005)
        #expect(statistics.snapshot()[.fcm]?.depth == 2)
        fake.advance(0.005)
        #expect(statistics.snapshot()[.fcm]?.depth == 3)
    }
}
