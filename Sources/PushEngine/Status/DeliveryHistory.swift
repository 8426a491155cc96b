import Foundation
import PushProtocol

/// Finished tries per minute and outcome for the last `capacity` minutes: the status page's
/// chart. A ring of minute buckets keyed by the minute since 1970, so a quiet stretch costs
/// nothing and a bucket older than the window is reused, not kept. Fed by the same counts as
/// `pushnode_deliveries_total` (the lane's `.count` action), so the two agree.
///
/// A value: time comes in as an argument (the engine passes its injected clock's `now`).
package struct DeliveryHistory: Sendable, Equatable {
    /// One minute's counts, outcome → tries.
    package struct Minute: Sendable, Equatable {
        /// The minute's start.
        package var start: Date
        package var counts: [TryOutcome: Int] = [:]
    }

    private struct Bucket: Equatable {
        var minute: Int64
        var counts: [TryOutcome: Int]
    }

    package let capacity: Int
    private var buckets: [Bucket?]

    package init(capacity: Int = 60) {
        self.capacity = max(1, capacity)
        buckets = Array(repeating: nil, count: self.capacity)
    }

    private static func minute(of date: Date) -> Int64 { Int64((date.timeIntervalSince1970 / 60).rounded(.down)) }

    /// Counts `count` tries ending in `outcome` in the minute of `date`.
    package mutating func add(_ outcome: TryOutcome, _ count: Int = 1, at date: Date) {
        guard count > 0 else { return }
        let minute = Self.minute(of: date)
        let slot = Int(((minute % Int64(capacity)) + Int64(capacity)) % Int64(capacity))
        if buckets[slot]?.minute != minute {
            // A count from before the bucket's minute (a clock stepped back) is too old to keep.
            if let held = buckets[slot]?.minute, held > minute { return }
            buckets[slot] = Bucket(minute: minute, counts: [:])
        }
        buckets[slot]!.counts[outcome, default: 0] += count
    }

    /// The `capacity` minutes up to and including the minute of `now`, oldest first; minutes with
    /// nothing counted are there with empty counts.
    package func minutes(endingAt now: Date) -> [Minute] {
        let last = Self.minute(of: now)
        let byMinute = Dictionary(buckets.compactMap { $0 }.map { ($0.minute, $0.counts) }, uniquingKeysWith: { a, _ in a })
        return (0..<Int64(capacity)).map { back in
            let minute = last - Int64(capacity - 1) + back
            return Minute(start: Date(timeIntervalSince1970: Double(minute) * 60), counts: byMinute[minute] ?? [:])
        }
    }
}
