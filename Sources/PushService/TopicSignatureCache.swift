import PushProtocol
import PushSupport

/// Remembers verified topic signatures so a hot topic is not re-verified on every Notify.
///
/// Ed25519 signatures are deterministic and the triple `(spaceKey, topic, signature)` either verifies
/// or not forever, so a cached "valid" never goes stale. Only valid triples are cached. Bounded with
/// two generations: when the current one fills, it becomes the previous one and the old previous is
/// dropped; a hit in the previous generation is promoted. That approximates LRU at a fraction of the
/// bookkeeping.
final class TopicSignatureCache: Sendable {
    private struct Key: Hashable {
        var spaceKey: [UInt8]
        var topic: String
        var signature: [UInt8]
    }

    private struct Generations {
        var current = Set<Key>()
        var previous = Set<Key>()
        var hits = 0
        var misses = 0
    }

    private let capacityPerGeneration: Int
    private let state = Protected(Generations())

    /// Holds between `capacity / 2` and `capacity` entries.
    init(capacity: Int = 65_536) {
        capacityPerGeneration = max(1, capacity / 2)
    }

    /// Whether the topic's signature is valid, verifying only on a miss.
    func isValid(_ topic: Topic) -> Bool {
        let key = Key(spaceKey: topic.spaceKey.publicKey, topic: topic.topic, signature: topic.signature)
        let cached = state.withLock { state -> Bool in
            if state.current.contains(key) {
                state.hits += 1
                return true
            }
            if state.previous.contains(key) {
                state.hits += 1
                insert(key, into: &state)
                return true
            }
            state.misses += 1
            return false
        }
        if cached { return true }
        guard topic.hasValidSignature else { return false }
        state.withLock { insert(key, into: &$0) }
        return true
    }

    /// Lookups answered from the cache and lookups that had to verify.
    var counts: (hits: Int, misses: Int) { state.withLock { ($0.hits, $0.misses) } }

    private func insert(_ key: Key, into state: inout Generations) {
        if state.current.count >= capacityPerGeneration {
            state.previous = state.current
            state.current = []
        }
        state.current.insert(key)
    }
}
