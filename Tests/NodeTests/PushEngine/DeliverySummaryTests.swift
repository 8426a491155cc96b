import PushProtocol
import PushSupport
import Testing
@testable import PushEngine

@Suite struct DeliverySummaryTests {
    @Test func aPeriodIsOneLineOfCountsPerProviderAndOutcomeAndNothingWhenQuiet() {
        let clock = Protected(100.0)
        let summary = DeliverySummary(monotonic: { clock.withLock { $0 } })
        #expect(summary.take() == nil)
        summary.add(.webpush, .retried, 2)
        summary.add(.fcm, .delivered, 3)
        summary.add(.fcm, .delivered, 9)
        summary.add(.apns, .dead, 0)
        clock.withLock { $0 += 60 }
        let line = summary.take()
        #expect(line?.level == .info)
        #expect(line?.text == "level=info event=delivery_summary seconds=60.0 total=14 fcm.delivered=12 webpush.retried=2")
        clock.withLock { $0 += 60 }
        #expect(summary.take() == nil)  // a new period started, and nothing happened in it
    }
}
