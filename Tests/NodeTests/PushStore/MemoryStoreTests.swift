import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// What only the memory store has; its semantics are the contract suites' (every `StoreKind`).
@Suite struct MemoryStoreTests {
    @Test func statisticsCountEachWriteTimedByTheInjectedClock() throws {
        let now = Box(t0)
        // Each reading advances the clock by 0.25 s: a write reads it twice, so it takes 0.25 s.
        let store = MemoryStore(clock: {
            now.mutate { $0.addTimeInterval(0.25) }
            return now.current
        })
        defer { store.close() }
        _ = try store.saveRegistration(registration("r1", account: "A"))
        try store.addSpace(spaceKey(1).string, account: "A", at: t0)
        _ = try store.spaces(ofAccount: "A")  // a read: not counted
        let stats = store.statistics()
        #expect(stats.commits == 2 && stats.writes == 2 && stats.largestBatch == 1)
        #expect(stats.batchSeconds == 0.5)
    }

    @Test func aRestartClosesTheOldStoreAndKeepsTheRows() throws {
        let old = MemoryStore(claimLease: 600)
        _ = try old.saveRegistration(registration("r1", account: "A"))
        _ = try old.enqueue(notification("n1"), deliveries: [Delivery(registrationId: "r1", provider: .fcm)],
                            caller: "S", key: IdempotencyKey(bytes: [1]), duplicateSince: t0)
        #expect(try old.claimDue(provider: .fcm, limit: 10, now: t0).entries.count == 1)
        let new = old.restarted()
        defer { new.close() }
        #expect(throws: StoreError.closed) { try old.registrations(ofAccount: "A") }
        #expect(try new.registrations(ofAccount: "A").map(\.id) == ["r1"])
        #expect(try new.claimDue(provider: .fcm, limit: 10, now: t0).entries.map(\.attempts) == [2])
        #expect(new.statistics().commits == 1)
    }
}
