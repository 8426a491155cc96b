import Foundation
import PushProtocol

/// The last `capacity` finished tries, newest first: the status page's "recent outcomes". A
/// bounded ring of `FinishedTry` values, which identify a try without exposing anyone.
package struct RecentDeliveries: Sendable, Equatable {
    package let capacity: Int
    private var ring: [FinishedTry] = []
    /// Where the next entry goes once the ring is full.
    private var next = 0

    package init(capacity: Int = 50) { self.capacity = max(1, capacity) }

    package mutating func add(_ entry: FinishedTry) {
        if ring.count < capacity {
            ring.append(entry)
        } else {
            ring[next] = entry
        }
        next = (next + 1) % capacity
    }

    /// Newest first.
    package var entries: [FinishedTry] {
        guard ring.count == capacity else { return ring.reversed() }
        return Array((ring[next...] + ring[..<next]).reversed())
    }
}
