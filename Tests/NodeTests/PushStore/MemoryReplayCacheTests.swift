import Testing
@testable import PushStore

@Suite struct MemoryReplayCacheTests {
    @Test func aPairIsAcceptedOnceUntilItExpires() {
        let cache = MemoryReplayCache(capacity: 10)
        #expect(cache.record(keyID: "A1", nonce: "n1", expiresAt: 100, now: 0) == .fresh)
        #expect(cache.record(keyID: "A1", nonce: "n1", expiresAt: 100, now: 50) == .replayed)
        #expect(cache.record(keyID: "A1", nonce: "n1", expiresAt: 100, now: 100) == .replayed)
        #expect(cache.record(keyID: "A1", nonce: "n1", expiresAt: 300, now: 101) == .fresh)
    }

    @Test func keyAndNonceAreNotConcatenatedAmbiguously() {
        let cache = MemoryReplayCache(capacity: 10)
        #expect(cache.record(keyID: "A1", nonce: "2n", expiresAt: 100, now: 0) == .fresh)
        #expect(cache.record(keyID: "A12", nonce: "n", expiresAt: 100, now: 0) == .fresh)
    }

    @Test func expiredEntriesAreDroppedAsNewOnesArrive() {
        let cache = MemoryReplayCache(capacity: 1000)
        for i in 0..<100 { _ = cache.record(keyID: "A", nonce: "n\(i)", expiresAt: 10, now: 0) }
        #expect(cache.count == 100)
        _ = cache.record(keyID: "A", nonce: "late", expiresAt: 30, now: 20)
        #expect(cache.count == 1)
    }

    @Test func theCacheStaysWithinCapacityEvictingTheOldest() {
        let cache = MemoryReplayCache(capacity: 3)
        for i in 0..<5 { #expect(cache.record(keyID: "A", nonce: "n\(i)", expiresAt: 1000, now: 0) == .fresh) }
        #expect(cache.count == 3)
        #expect(cache.evictedUnexpired == 2)
        #expect(cache.record(keyID: "A", nonce: "n4", expiresAt: 1000, now: 1) == .replayed)
        #expect(cache.record(keyID: "A", nonce: "n0", expiresAt: 1000, now: 1) == .fresh)
    }
}
