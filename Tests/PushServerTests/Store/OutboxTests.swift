import Foundation
import Testing
import PushProtocol
@testable import PushAnySync
@testable import PushConfig
@testable import PushDelivery
@testable import PushEngine
@testable import PushHTTP
@testable import PushMetrics
@testable import PushNet
@testable import PushNode
@testable import PushService
@testable import PushStore
@testable import PushSupport

@Suite struct OutboxTests {
    private func filled(_ fixture: StoreFixture, ttl: TimeInterval = 3600) throws {
        _ = try fixture.store.saveRegistration(registration("f1", account: "A"))
        _ = try fixture.store.saveRegistration(registration("f2", account: "B"))
        _ = try fixture.store.saveRegistration(registration("p1", account: "B", device: "x", platform: .apns, token: "ab"))
        let deliveries = [Delivery(registrationId: "f1", provider: .fcm), Delivery(registrationId: "f2", provider: .fcm),
                          Delivery(registrationId: "p1", provider: .apns)]
        let outcome = try fixture.store.enqueue(notification("n1", ttl: ttl), deliveries: deliveries, caller: "S",
                                                key: IdempotencyKey(bytes: [7]), duplicateSince: t0.addingTimeInterval(-86400))
        #expect(outcome == .accepted("n1"))
    }

    private func count(_ table: String, _ store: SQLiteStore) throws -> Int {
        try store.read { db in try db.queryFirst("SELECT count(*) FROM \(table)") { $0.int(0) } ?? -1 }
    }

    @Test func duplicatesWriteNothing() throws {
        let fixture = try StoreFixture()
        try filled(fixture)
        let again = try fixture.store.enqueue(notification("n2"), deliveries: [Delivery(registrationId: "f1", provider: .fcm)],
                                              caller: "S", key: IdempotencyKey(bytes: [7]), duplicateSince: t0.addingTimeInterval(-86400))
        #expect(again == .duplicate("n1"))
        #expect(try count("outbox", fixture.store) == 3)
        #expect(try count("notifications", fixture.store) == 1)
        // Another caller with the same key is not a duplicate; an older record outside the window is replaced.
        #expect(try fixture.store.enqueue(notification("n3"), deliveries: [], caller: "T", key: IdempotencyKey(bytes: [7]),
                                          duplicateSince: t0) == .accepted("n3"))
        #expect(try fixture.store.enqueue(notification("n4"), deliveries: [], caller: "S", key: IdempotencyKey(bytes: [7]),
                                          duplicateSince: t0.addingTimeInterval(1)) == .accepted("n4"))
        #expect(try fixture.store.acceptedNotification(caller: "S", key: IdempotencyKey(bytes: [7]), since: t0) == "n4")
        #expect(try count("notifications", fixture.store) == 1)  // no deliveries, no notification row
    }

    @Test func claimCompleteAndRefcountedNotification() throws {
        let fixture = try StoreFixture(configuration: .init(claimLease: 30))
        let store = fixture.store
        try filled(fixture)
        let claim = try store.claimDue(provider: .fcm, limit: 10, now: t0)
        #expect(claim.entries.map(\.registration.id).sorted() == ["f1", "f2"])
        #expect(claim.entries.allSatisfy { $0.attempts == 1 && $0.notification.id == "n1" && $0.notification.payload == Array(0..<40) })
        #expect(claim.entries.first?.registration.token == "token-\(claim.entries[0].registration.id)")
        // Claimed rows are not due again before the lease ends.
        #expect(try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(29)).entries.isEmpty)
        try store.complete(claim.entries.map(\.id))
        #expect(try store.outboxStatistics()[.fcm] == nil)
        #expect(try count("notifications", store) == 1)  // the apns delivery still needs it
        let apns = try store.claimDue(provider: .apns, limit: 10, now: t0)
        #expect(apns.entries.map(\.registration.platform) == [.apns])
        try store.complete(apns.entries.map(\.id))
        #expect(try count("notifications", store) == 0)
    }

    @Test func rescheduleAndLeaseExpiry() throws {
        let fixture = try StoreFixture(configuration: .init(claimLease: 30))
        let store = fixture.store
        try filled(fixture)
        let first = try store.claimDue(provider: .fcm, limit: 1, now: t0)
        #expect(first.entries.count == 1)
        try store.reschedule(first.entries[0].id, at: t0.addingTimeInterval(100))
        // The other fcm row is still due; the rescheduled one is not.
        let second = try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(1))
        #expect(second.entries.count == 1 && second.entries[0].id != first.entries[0].id)
        // The second claim is abandoned (a crashed sender): due again after its lease, with one more attempt.
        let later = try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(101))
        #expect(Set(later.entries.map(\.id)) == Set([first.entries[0].id, second.entries[0].id]))
        #expect(later.entries.allSatisfy { $0.attempts == 2 })
    }

    @Test func reopeningReleasesClaimsAtOnce() throws {
        let fixture = try StoreFixture(configuration: .init(claimLease: 600))
        try filled(fixture)
        #expect(try fixture.store.claimDue(provider: .fcm, limit: 10, now: t0).entries.count == 2)
        try fixture.reopen()
        // Due again at once, although the lease has not ended.
        let again = try fixture.store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(1))
        #expect(again.entries.count == 2)
    }

    @Test func expiredAndOrphanedRowsAreDroppedAtClaim() throws {
        let fixture = try StoreFixture()
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
        #expect(try count("notifications", store) == 0)
    }


    @Test func purgeLeavesClaimedRowsToTheirSender() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        try filled(fixture, ttl: 60)
        let claimed = try store.claimDue(provider: .fcm, limit: 10, now: t0)
        #expect(claimed.entries.count == 2)
        let purged = try store.purgeExpired(now: t0.addingTimeInterval(61))
        #expect(purged == PurgeCounts(idempotencyRecords: 0, notifications: 0, deliveries: 1))  // the queued apns row
        #expect(try store.outboxStatistics()[.fcm]?.depth == 2)
        try store.complete(claimed.entries.map(\.id))
        #expect(try count("notifications", store) == 0)
    }
}
