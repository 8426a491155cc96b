import Foundation

/// The last `capacity` finished tries, newest first: the status page's "recent outcomes". A
/// bounded ring of values that identify a try without exposing anyone: the notification id's
/// first 8 characters, never a token, endpoint, registration id or account.
package struct RecentDeliveries: Sendable, Equatable {
    package struct Entry: Sendable, Equatable {
        package var at: Date
        package var provider: String
        package var kind: String
        package var outcome: String
        /// The §6 reason code, when the try had one.
        package var reason: String?
        /// The first `notificationPrefix` characters of the Notify id.
        package var notification: String

        package init(at: Date, provider: String, kind: String, outcome: String, reason: String?, notification: String) {
            self.at = at
            self.provider = provider
            self.kind = kind
            self.outcome = outcome
            self.reason = reason
            self.notification = String(notification.prefix(RecentDeliveries.notificationPrefix))
        }
    }

    /// How many characters of a notification id an entry keeps.
    package static let notificationPrefix = 8

    package let capacity: Int
    private var ring: [Entry] = []
    /// Where the next entry goes once the ring is full.
    private var next = 0

    package init(capacity: Int = 50) { self.capacity = max(1, capacity) }

    package mutating func add(_ entry: Entry) {
        if ring.count < capacity {
            ring.append(entry)
        } else {
            ring[next] = entry
        }
        next = (next + 1) % capacity
    }

    /// Newest first.
    package var entries: [Entry] {
        guard ring.count == capacity else { return ring.reversed() }
        return Array((ring[next...] + ring[..<next]).reversed())
    }
}
