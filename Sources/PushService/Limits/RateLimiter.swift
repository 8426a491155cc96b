import PushCrypto
import PushSupport

/// Per-account token buckets for every `RateClass`, safe to call from any thread.
///
/// The table is split into shards, each behind its own lock, and bounded: when a shard is over
/// its share of `maxBuckets`, buckets that have refilled to full are forgotten first (they equal
/// a new bucket, so nothing changes for their accounts), then the least recently used.
package final class RateLimiter: Sendable {
    private struct Key: Hashable {
        let account: String
        let rateClass: RateClass
    }

    private struct Shard {
        var buckets: [Key: TokenBucket] = [:]
    }

    package let policy: RateLimitPolicy
    private let shards: [Protected<Shard>]
    private let bucketsPerShard: Int
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - maxBuckets: the most buckets held across all accounts and classes.
    ///   - now: a monotonic clock in seconds; injectable for tests.
    package init(policy: RateLimitPolicy = .default, maxBuckets: Int = 200_000, shardCount: Int = 16,
                now: @escaping @Sendable () -> Double = Clocks.monotonicSeconds) {
        precondition(maxBuckets > 0 && shardCount > 0)
        self.policy = policy
        self.shards = (0..<shardCount).map { _ in Protected(Shard()) }
        self.bucketsPerShard = max(1, maxBuckets / shardCount)
        self.now = now
    }

    /// Takes one token from the account's bucket for `rateClass`.
    package func take(account: AccountID, rateClass: RateClass) -> TokenBucket.Decision {
        take(account: account.string, rateClass: rateClass)
    }

    package func take(account: String, rateClass: RateClass) -> TokenBucket.Decision {
        let key = Key(account: account, rateClass: rateClass)
        let now = self.now()
        let shard = shards[Int(UInt(bitPattern: key.hashValue) % UInt(shards.count))]
        return shard.withLock { shard in
            var bucket = shard.buckets[key] ?? policy.newBucket(for: rateClass, now: now)
            let decision = bucket.take(now: now)
            if shard.buckets[key] == nil && shard.buckets.count >= bucketsPerShard {
                Self.evict(&shard, now: now, target: bucketsPerShard * 3 / 4)
            }
            shard.buckets[key] = bucket
            return decision
        }
    }

    /// Buckets currently held.
    package var bucketCount: Int { shards.reduce(0) { $0 + $1.withLock { $0.buckets.count } } }

    private static func evict(_ shard: inout Shard, now: Double, target: Int) {
        shard.buckets = shard.buckets.filter { !$0.value.isFull(at: now) }
        if shard.buckets.count > target {
            let oldest = shard.buckets.sorted { $0.value.updatedAt < $1.value.updatedAt }
                .prefix(shard.buckets.count - target)
            for (key, _) in oldest { shard.buckets[key] = nil }
        }
    }
}
