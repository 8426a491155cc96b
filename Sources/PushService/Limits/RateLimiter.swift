import PushCrypto
import PushSupport

/// Per-account token buckets for every `RateClass`, and per-address buckets for accounts the
/// node has not seen, safe to call from any thread. Both tables are bounded (`BucketTable`).
///
/// An account is seen once it holds a bucket of any class (its first request let through, and
/// not forgotten since). A request of an account not seen also takes a token from its client
/// address's bucket (`newAccountsPerAddress` a minute, as a burst too; PROTOCOL §7
/// `limits.newAccountsPerAddress`): keys made up on the spot are free, so without it one address
/// rotating keys would have a fresh budget per key. When that bucket is empty the request is
/// refused and the account stays unseen.
package final class RateLimiter: Sendable {
    private struct Key: Hashable, Sendable {
        let account: String
        let rateClass: RateClass
    }

    package let policy: RateLimitPolicy
    /// Accounts not seen yet that one client address may bring a minute; 0 = no such limit.
    package let newAccountsPerAddress: Int
    private let accounts: BucketTable<Key>
    private let addresses: BucketTable<String>
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - maxBuckets: the most buckets held across all accounts and classes (and as many for
    ///     addresses).
    ///   - now: a monotonic clock in seconds; injectable for tests.
    package init(policy: RateLimitPolicy = .default, newAccountsPerAddress: Int = 0, maxBuckets: Int = 200_000,
                 shardCount: Int = 16, now: @escaping @Sendable () -> Double = Clocks.monotonicSeconds) {
        self.policy = policy
        self.newAccountsPerAddress = max(0, newAccountsPerAddress)
        accounts = BucketTable(maxBuckets: maxBuckets, shardCount: shardCount)
        addresses = BucketTable(maxBuckets: maxBuckets, shardCount: shardCount)
        self.now = now
    }

    /// Takes one token from the account's bucket for `rateClass` (and, for an account not seen,
    /// from `client`'s: `ClientAddress.key`, nil when the door does not know it).
    package func take(account: AccountID, rateClass: RateClass, client: String? = nil) -> TokenBucket.Decision {
        take(account: account.string, rateClass: rateClass, client: client)
    }

    package func take(account: String, rateClass: RateClass, client: String? = nil) -> TokenBucket.Decision {
        let now = self.now()
        let hash = account.hashValue  // every class of one account in one shard
        if newAccountsPerAddress > 0, let client,
           !accounts.holdsAny(of: RateClass.allCases.map { Key(account: account, rateClass: $0) }, shardHash: hash) {
            let perMinute = Double(newAccountsPerAddress)
            let decision = addresses.take(client, shardHash: client.hashValue, now: now) {
                TokenBucket(capacity: perMinute, refillPerSecond: perMinute / 60, now: now)
            }
            if case .denied = decision { return decision }
        }
        return accounts.take(Key(account: account, rateClass: rateClass), shardHash: hash, now: now) {
            policy.newBucket(for: rateClass, now: now)
        }
    }

    /// Account buckets currently held.
    package var bucketCount: Int { accounts.count }
}
