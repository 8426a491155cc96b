import Foundation
import PushDelivery

/// Web Push origins that answered 429: until their time runs out, no delivery to them is sent
/// (a push service rate-limits the sender, not one subscription). Touched by one lane only.
struct OriginBackoff {
    private var holds: [EndpointOrigin: Date] = [:]

    /// When deliveries to `origin` may go again, if it is held at `now`.
    mutating func heldUntil(_ origin: EndpointOrigin, now: Date) -> Date? {
        guard let until = holds[origin] else { return nil }
        if until <= now {
            holds[origin] = nil
            return nil
        }
        return until
    }

    mutating func hold(_ origin: EndpointOrigin, until: Date) {
        holds[origin] = max(until, holds[origin] ?? until)
    }

    /// No origin is held: a lane then skips parsing each endpoint to look its origin up.
    var isEmpty: Bool { holds.isEmpty }

    var earliestEnd: Date? { holds.values.min() }
}
