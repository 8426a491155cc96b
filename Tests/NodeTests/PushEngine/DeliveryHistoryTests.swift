import Foundation
import PushProtocol
import Testing
@testable import PushEngine

@Suite struct DeliveryHistoryTests {
    private let t0 = Date(timeIntervalSince1970: 1_800_000_000)  // a minute's start

    @Test func countsLandInTheirMinuteAndTheWindowEndsAtNow() {
        var history = DeliveryHistory(capacity: 60)
        history.add(.delivered, 3, at: t0)
        history.add(.delivered, at: t0.addingTimeInterval(59.9))
        history.add(.retried, 2, at: t0.addingTimeInterval(60))
        history.add(.dead, 0, at: t0)  // nothing
        let minutes = history.minutes(endingAt: t0.addingTimeInterval(90))
        #expect(minutes.count == 60)
        #expect(minutes.last?.start == t0.addingTimeInterval(60) && minutes.last?.counts == [.retried: 2])
        #expect(minutes[58].start == t0 && minutes[58].counts == [.delivered: 4])
        #expect(minutes[0].start == t0.addingTimeInterval(-58 * 60) && minutes[0].counts.isEmpty)
    }

    @Test func aMinuteOlderThanTheWindowIsForgottenAndItsSlotReused() {
        var history = DeliveryHistory(capacity: 3)
        history.add(.delivered, 5, at: t0)
        #expect(history.minutes(endingAt: t0.addingTimeInterval(2 * 60)).first?.counts == [.delivered: 5])
        #expect(history.minutes(endingAt: t0.addingTimeInterval(3 * 60)).allSatisfy { $0.counts.isEmpty })
        // Three minutes later the same slot: the old count is not added to.
        history.add(.expired, at: t0.addingTimeInterval(3 * 60))
        #expect(history.minutes(endingAt: t0.addingTimeInterval(3 * 60)).last?.counts == [.expired: 1])
        // A count from before the slot's minute (the clock stepped back) is dropped.
        history.add(.delivered, at: t0)
        #expect(history.minutes(endingAt: t0.addingTimeInterval(3 * 60)).map(\.counts) == [[:], [:], [.expired: 1]])
    }

    @Test func recentKeepsTheNewestFirstAndAtMostItsCapacity() {
        var recent = RecentDeliveries(capacity: 3)
        func entry(_ n: Int) -> FinishedTry {
            .init(at: t0.addingTimeInterval(Double(n)), provider: "fcm", kind: "message", outcome: .delivered, reason: nil,
                  notification: "0123456789abcdef-\(n)")
        }
        #expect(recent.entries.isEmpty)
        recent.add(entry(1))
        recent.add(entry(2))
        #expect(recent.entries.map(\.at) == [t0.addingTimeInterval(2), t0.addingTimeInterval(1)])
        for n in 3...7 { recent.add(entry(n)) }
        #expect(recent.entries.map(\.at) == [7, 6, 5].map { t0.addingTimeInterval($0) })
        #expect(recent.entries.allSatisfy { $0.notification == "01234567" })
    }
}

/// The one place a recent outcome's notification id is shortened (the status page shows it as given).
@Suite struct FinishedTryTests {
    @Test func theNotificationIdIsCutToItsPrefix() {
        let entry = FinishedTry(at: Date(timeIntervalSince1970: 0), provider: "fcm", kind: "message",
                                outcome: .delivered, reason: nil, notification: "0123456789abcdef")
        #expect(entry.notification == "01234567" && FinishedTry.notificationPrefix == 8)
    }
}
