import PushSupport

/// Token buckets by key, split into shards each behind its own lock, and bounded: when a shard
/// is over its share of `maxBuckets`, buckets that have refilled to full are forgotten first
/// (they equal a new bucket, so nothing changes for their owners), then the least recently used.
/// Safe to call from any thread. The tables of `RateLimiter`.
struct BucketTable<Key: Hashable & Sendable>: Sendable {
    private let shards: [Protected<[Key: TokenBucket]>]
    private let bucketsPerShard: Int

    init(maxBuckets: Int, shardCount: Int) {
        precondition(maxBuckets > 0 && shardCount > 0)
        shards = (0..<shardCount).map { _ in Protected([:]) }
        bucketsPerShard = max(1, maxBuckets / shardCount)
    }

    /// The shard of `hash`: keys that must be looked at together share a hash.
    private func shard(_ hash: Int) -> Protected<[Key: TokenBucket]> {
        shards[Int(UInt(bitPattern: hash) % UInt(shards.count))]
    }

    /// Takes one token from `key`'s bucket (a fresh one from `newBucket` if it has none).
    func take(_ key: Key, shardHash: Int, now: Double, newBucket: () -> TokenBucket) -> TokenBucket.Decision {
        shard(shardHash).withLock { buckets in
            var bucket = buckets[key] ?? newBucket()
            let decision = bucket.take(now: now)
            if buckets[key] == nil && buckets.count >= bucketsPerShard {
                Self.evict(&buckets, now: now, target: bucketsPerShard * 3 / 4)
            }
            buckets[key] = bucket
            return decision
        }
    }

    /// Whether any of `keys` (all of `shardHash`) has a bucket.
    func holdsAny(of keys: [Key], shardHash: Int) -> Bool {
        shard(shardHash).withLock { buckets in keys.contains { buckets[$0] != nil } }
    }

    /// Buckets currently held.
    var count: Int { shards.reduce(0) { $0 + $1.withLock { $0.count } } }

    private static func evict(_ buckets: inout [Key: TokenBucket], now: Double, target: Int) {
        buckets = buckets.filter { !$0.value.isFull(at: now) }
        if buckets.count > target {
            let oldest = buckets.sorted { $0.value.updatedAt < $1.value.updatedAt }.prefix(buckets.count - target)
            for (key, _) in oldest { buckets[key] = nil }
        }
    }
}
