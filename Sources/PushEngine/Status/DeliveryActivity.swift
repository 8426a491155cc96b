import Foundation
import PushProtocol
import PushSupport

/// What the lanes did lately, for the status page: the per-minute `DeliveryHistory` and the
/// `RecentDeliveries` ring, shared by every lane behind one lock. The lanes pass their clock's
/// time in, so this holds no clock of its own.
package final class DeliveryActivity: Sendable {
    private struct State {
        var history: DeliveryHistory
        var recent: RecentDeliveries
    }

    private let state: Protected<State>

    package init(minutes: Int = 60, recent: Int = 50) {
        state = Protected(State(history: DeliveryHistory(capacity: minutes), recent: RecentDeliveries(capacity: recent)))
    }

    /// The same counts as `pushnode_deliveries_total` (the lane's `.count` action).
    func count(_ outcome: LaneStateMachine.Outcome, _ count: Int, at date: Date) {
        state.withLock { $0.history.add(outcome, count, at: date) }
    }

    func record(_ event: DeliveryEvent, at date: Date) {
        let entry = FinishedTry(at: date, provider: event.provider.rawValue, kind: event.kind.rawValue,
                                outcome: event.outcome, reason: event.reason?.code.rawValue, notification: event.notificationId)
        state.withLock { $0.recent.add(entry) }
    }

    /// The window's minutes up to `now`, oldest first.
    package func minutes(endingAt now: Date) -> [DeliveryHistory.Minute] { state.withLock { $0.history.minutes(endingAt: now) } }

    /// Newest first.
    package var recent: [FinishedTry] { state.withLock { $0.recent.entries } }
}
