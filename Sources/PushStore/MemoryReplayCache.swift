import PushCrypto
import PushSupport

/// A bounded in-memory `ReplayCache`.
///
/// Pairs are stored as a 128-bit digest (SHA-256 of `keyid ‖ 0 ‖ nonce`, truncated) with their
/// expiry, and also queued in insertion order; expired entries are dropped from the head of the
/// queue as new ones arrive. When the cache is full of unexpired entries, the oldest insertion is
/// forgotten (and counted in `evictedUnexpired`): memory stays bounded at the cost of replay
/// protection for the very oldest pairs, which a sized cache should never reach.
package final class MemoryReplayCache: ReplayCache {
    package struct Key: Hashable, Sendable {
        let high: UInt64
        let low: UInt64
    }

    private struct State {
        var expiries: [Key: Double] = [:]
        var order: [(key: Key, expiresAt: Double)] = []
        var head = 0
        var evictedUnexpired = 0
    }

    /// The most pairs held at once.
    package let capacity: Int
    private let state = Protected(State())

    package init(capacity: Int = 1_000_000) {
        precondition(capacity > 0, "replay cache capacity must be positive")
        self.capacity = capacity
    }

    package func record(keyID: String, nonce: String, expiresAt: Double, now: Double) -> ReplayCheck {
        record(Self.key(keyID: keyID, nonce: nonce), expiresAt: expiresAt, now: now)
    }

    /// The same for a pair already digested (`JournaledReplayCache`).
    package func record(_ key: Key, expiresAt: Double, now: Double) -> ReplayCheck {
        state.withLock { state in
            if let expiry = state.expiries[key], expiry >= now { return .replayed }
            Self.purge(&state, now: now, capacity: capacity)
            state.expiries[key] = expiresAt
            state.order.append((key, expiresAt))
            return .fresh
        }
    }

    /// Pairs currently remembered.
    package var count: Int { state.withLock { $0.expiries.count } }

    /// Unexpired pairs dropped because the cache was full.
    package var evictedUnexpired: Int { state.withLock { $0.evictedUnexpired } }

    /// Drops expired entries at the head of the queue, then the oldest while over capacity.
    private static func purge(_ state: inout State, now: Double, capacity: Int) {
        while state.head < state.order.count {
            let entry = state.order[state.head]
            guard let live = state.expiries[entry.key], live == entry.expiresAt else {
                state.head += 1  // already dropped, or superseded by a later insertion of the pair
                continue
            }
            if entry.expiresAt < now {
                state.expiries[entry.key] = nil
            } else if state.expiries.count >= capacity {
                state.expiries[entry.key] = nil
                state.evictedUnexpired += 1
            } else {
                break
            }
            state.head += 1
        }
        // Compact the queue once its consumed prefix dominates.
        if state.head > 1024 && state.head * 2 > state.order.count {
            state.order.removeFirst(state.head)
            state.head = 0
        }
    }

    package static func key(keyID: String, nonce: String) -> Key {
        let digest = SHA256.hash(Array(keyID.utf8) + [0] + Array(nonce.utf8))
        var high: UInt64 = 0, low: UInt64 = 0
        for i in 0..<8 { high = high << 8 | UInt64(digest[i]) }
        for i in 8..<16 { low = low << 8 | UInt64(digest[i]) }
        return Key(high: high, low: low)
    }
}
