import Foundation

/// Backoff scopes that were told to wait (`DeliveryOutcome.BackoffScope.origin`; the key is the
/// gateway's `backoffScope(for:)`, for Web Push the endpoint's origin after a 429): until their
/// time runs out, no delivery of theirs is sent. Part of one lane's state, so touched by one
/// thread only.
struct OriginBackoff<Key: Hashable> {
    private var holds: [Key: Date] = [:]

    /// When deliveries of `key` may go again, if it is held at `now`; a lapsed hold is dropped.
    mutating func heldUntil(_ key: Key, now: Date) -> Date? {
        guard let until = holds[key] else { return nil }
        if until <= now {
            holds[key] = nil
            return nil
        }
        return until
    }

    /// Holds `key` until `until`, or longer if it already is.
    mutating func hold(_ key: Key, until: Date) {
        holds[key] = max(until, holds[key] ?? until)
    }

    /// Nothing is held: a lane then skips working out each claimed delivery's key.
    var isEmpty: Bool { holds.isEmpty }
}
