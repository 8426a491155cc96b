import Foundation
import PushSupport

/// The delivery engine's one clock, injected everywhere it reads time: due dates, ttls and claim
/// leases come from `now` (the store's dates are wall-clock dates); durations (the send-time
/// histogram, the stop deadline) from `monotonic`, which wall-clock steps do not move.
///
/// Tests drive `now` by hand; nothing in the engine calls `Date()` or
/// `Clocks.monotonicSeconds()` directly.
package struct EngineClock: Sendable {
    /// Wall-clock time.
    package var now: @Sendable () -> Date
    /// Seconds with an arbitrary origin that never go backwards.
    package var monotonic: @Sendable () -> Double

    /// The system's clocks.
    package static let system = EngineClock(now: { Date() }, monotonic: { Clocks.monotonicSeconds() })
}
