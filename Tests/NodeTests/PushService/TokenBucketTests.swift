import Testing
@testable import PushService

@Suite struct TokenBucketTests {
    @Test func aFullBucketAllowsItsBurstThenDenies() {
        var bucket = TokenBucket(capacity: 3, refillPerSecond: 1, now: 0)
        #expect(bucket.take(now: 0) == .allowed)
        #expect(bucket.take(now: 0) == .allowed)
        #expect(bucket.take(now: 0) == .allowed)
        #expect(bucket.take(now: 0) == .denied(retryAfter: 1))
    }

    @Test func retryAfterIsTheWholeSecondsUntilOneToken() {
        var bucket = TokenBucket(capacity: 1, refillPerSecond: 20.0 / 60, now: 0)  // one per 3 s
        #expect(bucket.take(now: 0) == .allowed)
        #expect(bucket.take(now: 0) == .denied(retryAfter: 3))
        #expect(bucket.take(now: 1.5) == .denied(retryAfter: 2))
        #expect(bucket.take(now: 3) == .allowed)
    }

    @Test func retryAfterIsAtLeastOneSecond() {
        var bucket = TokenBucket(capacity: 1, refillPerSecond: 100, now: 0)
        #expect(bucket.take(now: 0) == .allowed)
        #expect(bucket.take(now: 0) == .denied(retryAfter: 1))
    }

    @Test func refillNeverExceedsCapacity() {
        var bucket = TokenBucket(capacity: 2, refillPerSecond: 1, now: 0)
        _ = bucket.take(now: 0)
        _ = bucket.take(now: 0)
        #expect(!bucket.isFull(at: 1))
        #expect(bucket.isFull(at: 2))
        #expect(bucket.take(now: 1000) == .allowed)
        #expect(bucket.take(now: 1000) == .allowed)
        #expect(bucket.take(now: 1000) == .denied(retryAfter: 1))
    }

    @Test func aClockGoingBackwardsAddsNothing() {
        var bucket = TokenBucket(capacity: 1, refillPerSecond: 1, now: 10)
        #expect(bucket.take(now: 10) == .allowed)
        #expect(bucket.take(now: 5) == .denied(retryAfter: 1))
    }
}

@Suite struct RateLimiterTests {
    @Test func accountsAndClassesHaveTheirOwnBuckets() {
        let clock = TestClock(0)
        let limiter = RateLimiter(policy: RateLimitPolicy(registrationPerMinute: 20, registrationBurst: 2,
                                                          notifyPerSecond: 20, notifyBurst: 1), now: clock.function)
        #expect(limiter.take(account: "A", rateClass: .registration) == .allowed)
        #expect(limiter.take(account: "A", rateClass: .registration) == .allowed)
        #expect(limiter.take(account: "A", rateClass: .registration) == .denied(retryAfter: 3))
        #expect(limiter.take(account: "B", rateClass: .registration) == .allowed)
        #expect(limiter.take(account: "A", rateClass: .notify) == .allowed)
        #expect(limiter.take(account: "A", rateClass: .notify) == .denied(retryAfter: 1))
        clock.advance(0.05)
        #expect(limiter.take(account: "A", rateClass: .notify) == .allowed)
    }

    @Test func theDefaultPolicyIsTheDocumentedOne() {
        let clock = TestClock(0)
        let limiter = RateLimiter(now: clock.function)
        for _ in 0..<20 { #expect(limiter.take(account: "A", rateClass: .registration) == .allowed) }
        #expect(limiter.take(account: "A", rateClass: .registration) == .denied(retryAfter: 3))
        for _ in 0..<100 { #expect(limiter.take(account: "A", rateClass: .notify) == .allowed) }
        #expect(limiter.take(account: "A", rateClass: .notify) == .denied(retryAfter: 1))
        clock.advance(1)
        for _ in 0..<20 { #expect(limiter.take(account: "A", rateClass: .notify) == .allowed) }
        #expect(limiter.take(account: "A", rateClass: .notify) == .denied(retryAfter: 1))
    }

    @Test func theTableIsBoundedAndForgetsRefilledBucketsFirst() {
        let clock = TestClock(0)
        let limiter = RateLimiter(policy: RateLimitPolicy(registrationPerMinute: 60, registrationBurst: 1),
                                  maxBuckets: 8, shardCount: 1, now: clock.function)
        for i in 0..<8 { _ = limiter.take(account: "idle\(i)", rateClass: .registration) }
        clock.advance(0.5)
        _ = limiter.take(account: "busy", rateClass: .registration)  // evicts down to 6: oldest go first
        #expect(limiter.bucketCount <= 8)
        #expect(limiter.take(account: "busy", rateClass: .registration) == .denied(retryAfter: 1))
        clock.advance(10)
        for i in 0..<50 { _ = limiter.take(account: "more\(i)", rateClass: .registration) }
        #expect(limiter.bucketCount <= 8)
    }
}
