import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// The notification and outbox half of the `PushStore` contract (idempotency, claims, leases,
/// renewals, expiry, orphans, purge, hooks), run against every store like `StoreContractTests`.
@Suite struct OutboxTests {
    private func filled(_ fixture: ContractFixture, ttl: TimeInterval = 3600) throws {
        _ = try fixture.store.saveRegistration(registration("f1", account: "A"))
        _ = try fixture.store.saveRegistration(registration("f2", account: "B"))
        _ = try fixture.store.saveRegistration(registration("p1", account: "B", device: "x", platform: .apns, token: "ab"))
        let deliveries = [Delivery(registrationId: "f1", provider: .fcm), Delivery(registrationId: "f2", provider: .fcm),
                          Delivery(registrationId: "p1", provider: .apns)]
        let outcome = try fixture.store.enqueue(notification("n1", ttl: ttl), deliveries: deliveries, caller: "S",
                                                key: IdempotencyKey(bytes: [7]), duplicateSince: t0.addingTimeInterval(-86400))
        #expect(outcome == .accepted("n1"))
    }

    @Test(arguments: StoreKind.available) func duplicatesWriteNothing(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        try filled(fixture)
        let again = try fixture.store.enqueue(notification("n2"), deliveries: [Delivery(registrationId: "f1", provider: .fcm)],
                                              caller: "S", key: IdempotencyKey(bytes: [7]), duplicateSince: t0.addingTimeInterval(-86400))
        #expect(again == .duplicate("n1"))
        #expect(try fixture.queuedDeliveries() == 3)
        #expect(try fixture.count("notifications") == 1)
        // Another caller with the same key is not a duplicate; an older record outside the window is replaced.
        #expect(try fixture.store.enqueue(notification("n3"), deliveries: [], caller: "T", key: IdempotencyKey(bytes: [7]),
                                          duplicateSince: t0) == .accepted("n3"))
        #expect(try fixture.store.enqueue(notification("n4"), deliveries: [], caller: "S", key: IdempotencyKey(bytes: [7]),
                                          duplicateSince: t0.addingTimeInterval(1)) == .accepted("n4"))
        #expect(try fixture.store.enqueue(notification("again"), deliveries: [], caller: "S", key: IdempotencyKey(bytes: [7]),
                                          duplicateSince: t0) == .duplicate("n4"))
        #expect(try fixture.count("notifications") == 1)  // no deliveries, no notification row
    }

    @Test(arguments: StoreKind.available) func claimCompleteAndRefcountedNotification(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind, claimLease: 30)
        let store = fixture.store
        try filled(fixture)
        let claim = try store.claimDue(provider: .fcm, limit: 10, now: t0)
        #expect(claim.entries.map(\.registration.id).sorted() == ["f1", "f2"])
        #expect(claim.entries.allSatisfy { $0.attempts == 1 && $0.notification == notification("n1") })
        #expect(claim.entries.first?.registration.address.token == "token-\(claim.entries[0].registration.id)")
        // Claimed rows are not due again before the lease ends.
        #expect(try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(29)).entries.isEmpty)
        try store.complete(claim.entries.map(\.id))
        #expect(try store.outboxStatistics()[.fcm] == nil)
        #expect(try fixture.count("notifications") == 1)  // the apns delivery still needs it
        let apns = try store.claimDue(provider: .apns, limit: 10, now: t0)
        #expect(apns.entries.map(\.registration.address.platform) == [.apns])
        try store.complete(apns.entries.map(\.id))
        #expect(try fixture.count("notifications") == 0)
    }

    /// What the engine's fair share had no room for goes back untried: due again then, its
    /// attempt not counted.
    @Test(arguments: StoreKind.available) func aReleasedRowIsDueAgainWithItsAttemptNotCounted(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind, claimLease: 30)
        let store = fixture.store
        try filled(fixture)
        let first = try store.claimDue(provider: .fcm, limit: 10, now: t0)
        #expect(first.entries.map(\.attempts) == [1, 1])
        try store.release(first.entries.map(\.id), until: t0.addingTimeInterval(5))
        #expect(try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(4)).entries.isEmpty)
        let again = try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(5))
        #expect(again.entries.map(\.id).sorted() == first.entries.map(\.id).sorted())
        #expect(again.entries.map(\.attempts) == [1, 1])
        // A row no longer claimed is left alone.
        try store.complete(again.entries.map(\.id))
        try store.release(again.entries.map(\.id), until: t0)
        #expect(try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(100)).entries.isEmpty)
    }

    @Test(arguments: StoreKind.available) func rescheduleRenewAndLeaseExpiry(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind, claimLease: 30)
        let store = fixture.store
        try filled(fixture)
        let first = try store.claimDue(provider: .fcm, limit: 1, now: t0)
        #expect(first.entries.count == 1)
        try store.reschedule(first.entries[0].id, at: t0.addingTimeInterval(100))
        // The other fcm row is still due; the rescheduled one is not.
        let second = try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(1))
        #expect(second.entries.count == 1 && second.entries[0].id != first.entries[0].id)
        // Renewed at t0+20: held until t0+50, although the first lease ended at t0+31. A queued row is not "held".
        #expect(try store.renewClaims([second.entries[0].id, first.entries[0].id], now: t0.addingTimeInterval(20))
                == [second.entries[0].id])
        #expect(try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(40)).entries.isEmpty)
        // Then abandoned (a crashed sender): due again after its lease, with one more attempt.
        let later = try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(101))
        #expect(Set(later.entries.map(\.id)) == Set([first.entries[0].id, second.entries[0].id]))
        #expect(later.entries.allSatisfy { $0.attempts == 2 })
        try store.complete(later.entries.map(\.id))
        #expect(try store.renewClaims(later.entries.map(\.id), now: t0.addingTimeInterval(102)).isEmpty)
    }

    @Test(arguments: StoreKind.available) func reopeningReleasesClaimsAtOnce(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind, claimLease: 600)
        try filled(fixture)
        #expect(try fixture.store.claimDue(provider: .fcm, limit: 10, now: t0).entries.count == 2)
        try fixture.reopen()
        // Due again at once, although the lease has not ended.
        let again = try fixture.store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(1))
        #expect(again.entries.count == 2)
    }

    @Test(arguments: StoreKind.available) func expiredAndOrphanedRowsAreDroppedAtClaim(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try filled(fixture, ttl: 60)
        #expect(try store.pruneRegistration("f1", notUpdatedAfter: t0.addingTimeInterval(-1)) == false)  // re-registered later
        #expect(try store.pruneRegistration("f1", notUpdatedAfter: t0))
        let claim = try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(1))
        #expect(claim.entries.map(\.registration.id) == ["f2"])
        #expect(claim.orphaned == 1)
        let late = try store.claimDue(provider: .apns, limit: 10, now: t0.addingTimeInterval(60))
        #expect(late.entries.isEmpty && late.expired == 1)
        try store.complete(claim.entries.map(\.id))
        #expect(try fixture.count("notifications") == 0)
    }

    @Test(arguments: StoreKind.available) func statisticsAndPurge(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try filled(fixture, ttl: 60)
        _ = try store.saveRegistration(registration("f3", account: "C"))
        _ = try store.enqueue(notification("n9", at: t0.addingTimeInterval(10)), deliveries: [Delivery(registrationId: "f3", provider: .fcm)],
                              caller: "S", key: IdempotencyKey(bytes: [8]), duplicateSince: t0)
        let stats = try store.outboxStatistics()
        #expect(stats[.fcm] == OutboxStatistics(depth: 3, oldestCreatedAt: t0))
        #expect(stats[.apns] == OutboxStatistics(depth: 1, oldestCreatedAt: t0))
        #expect(stats[.webpush] == nil)
        let purged = try store.purgeExpired(now: t0.addingTimeInterval(86_400 + 5))
        // n9's status is younger than the 24 h outcome retention; the one filled at t0 is not.
        #expect(purged == PurgeCounts(idempotencyRecords: 1, notifications: 2, deliveries: 4, statuses: 1))
        #expect(try store.enqueue(notification("again"), deliveries: [], caller: "S", key: IdempotencyKey(bytes: [8]),
                                          duplicateSince: t0) == .duplicate("n9"))
        #expect(try store.outboxStatistics().isEmpty)
    }

    @Test(arguments: StoreKind.available) func purgeLeavesClaimedRowsToTheirSender(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try filled(fixture, ttl: 60)
        let claimed = try store.claimDue(provider: .fcm, limit: 10, now: t0)
        #expect(claimed.entries.count == 2)
        let purged = try store.purgeExpired(now: t0.addingTimeInterval(61))
        #expect(purged == PurgeCounts(idempotencyRecords: 0, notifications: 0, deliveries: 1))  // the queued apns row
        #expect(try store.outboxStatistics()[.fcm]?.depth == 2)
        try store.complete(claimed.entries.map(\.id))
        #expect(try fixture.count("notifications") == 0)
    }

    @Test(arguments: StoreKind.available) func enqueueWithDeliveriesFiresTheHook(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let fired = Box(0)
        fixture.store.onEnqueue { fired.mutate { $0 += 1 } }
        _ = try fixture.store.saveRegistration(registration("f1", account: "A"))
        _ = try fixture.store.enqueue(notification("n0"), deliveries: [], caller: "S", key: IdempotencyKey(bytes: [1]),
                                      duplicateSince: t0)
        #expect(fired.current == 0)
        try filled(fixture)
        #expect(fired.current == 1)
    }

    /// `OutboxStatistics.oldestCreatedAt` is when the oldest row was queued. PostgreSQL (and memory)
    /// take the least `createdAt`; SQLite takes the least over unexpanded chunks, but over outbox
    /// rows the `createdAt` of the first row inserted, which is the same only while rows are
    /// inserted in `createdAt` order — a Notify whose clock reading is older than a row already
    /// committed (group commit reorders concurrent requests) breaks it. The claim below expands
    /// both deliveries into outbox rows, in acceptance order.
    @Test(arguments: StoreKind.available) func theOldestEntryIsTheEarliestQueued(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        _ = try store.saveRegistration(registration("f1", account: "A"))
        for (id, offset) in [("late", 10.0), ("early", 0.0)] {
            _ = try store.enqueue(notification(id, at: t0.addingTimeInterval(offset)),
                                  deliveries: [Delivery(registrationId: "f1", provider: .fcm)],
                                  caller: "S", key: IdempotencyKey(bytes: Array(id.utf8)), duplicateSince: t0)
        }
        #expect(try store.outboxStatistics()[.fcm] == OutboxStatistics(depth: 2, oldestCreatedAt: t0))
        #expect(try store.claimDue(provider: .fcm, limit: 2, now: t0.addingTimeInterval(20)).entries.count == 2)
        let statistics = try store.outboxStatistics()[.fcm]
        withKnownIssue("SQLite reports the first-inserted row's createdAt, not the least") {
            #expect(statistics == OutboxStatistics(depth: 2, oldestCreatedAt: t0))
        } when: {
            kind == .sqlite
        }
    }
}
