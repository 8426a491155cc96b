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

/// The `PushStore` contract, run against every store (SQLite always; PostgreSQL when
/// `PUSHNODE_TEST_PG_URL` names a test cluster).
@Suite struct StoreContractTests {
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

    @Test(arguments: StoreKind.available) func reopenKeepsData(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let saved = try fixture.store.saveRegistration(registration("r1", account: "A"))
        _ = try fixture.store.addSubscriptions(ofAccount: "A", [ref(1, "chats")], limit: 10)
        try fixture.store.addSpace(spaceKey(1).string, account: "A", at: t0)
        _ = try fixture.store.enqueue(notification("n1"), deliveries: [Delivery(registrationId: "r1", provider: .fcm)],
                                      caller: "B", key: IdempotencyKey(bytes: [1]), duplicateSince: t0)
        try fixture.reopen()
        #expect(try fixture.store.registrations(ofAccount: "A") == [saved])
        #expect(try fixture.store.subscriptions(ofAccount: "A") == [ref(1, "chats")])
        #expect(try fixture.store.spaces(ofAccount: "A") == [spaceKey(1).string])
        #expect(try fixture.store.outboxStatistics()[.fcm]?.depth == 1)
        #expect(try fixture.store.acceptedNotification(caller: "B", key: IdempotencyKey(bytes: [1]), since: t0) == "n1")
    }

    @Test(arguments: StoreKind.available) func registrationsMoveRotateAndRevoke(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        _ = try store.saveRegistration(registration("r1", account: "A", device: "phone"))
        var again = registration("r1", account: "A", device: "phone", at: t0.addingTimeInterval(60))
        let stored = try store.saveRegistration(again)
        #expect(stored.createdAt == t0)
        #expect(stored.updatedAt == t0.addingTimeInterval(60))
        again.account = "B"
        again.updatedAt = t0.addingTimeInterval(120)
        again.createdAt = t0.addingTimeInterval(120)
        #expect(try store.saveRegistration(again).createdAt == t0.addingTimeInterval(120))
        #expect(try store.registrations(ofAccount: "A").isEmpty)
        #expect(try store.registrations(ofAccount: "B").map(\.id) == ["r1"])
        _ = try store.saveRegistration(registration("w1", account: "B", device: "phone", platform: .webpush))
        _ = try store.saveRegistration(registration("r2", account: "B", device: "phone"))
        _ = try store.saveRegistration(registration("r3", account: "B", device: "phone", appId: "other"))
        #expect(Set(try store.registrations(ofAccount: "B").map(\.id)) == ["w1", "r2", "r3"])
        #expect(try store.deleteRegistrations(ofAccount: "B", platform: .android, token: "token-r2") == 1)
        #expect(try store.deleteRegistrations(ofAccount: "A", deviceId: "phone") == 0)
        #expect(try store.deleteRegistrations(ofAccount: "B", deviceId: "phone") == 2)
        #expect(try store.registrations(ofAccount: "B").isEmpty)
    }

    @Test(arguments: StoreKind.available) func keysRoundTrip(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        var webpush = registration("w", account: "A", platform: .webpush, token: "https://push.example/x?a=\"b\"")
        webpush.p256dh = [4] + [UInt8](repeating: 7, count: 64)
        webpush.auth = [UInt8](repeating: 3, count: 16)
        _ = try fixture.store.saveRegistration(webpush)
        #expect(try fixture.store.registrations(ofAccount: "A") == [webpush])
    }

    @Test(arguments: StoreKind.available) func subscriptionsReplaceAddRemoveAndLimit(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        #expect(try store.replaceSubscriptions(ofAccount: "A", with: [ref(1, "a"), ref(1, "b"), ref(1, "a")], limit: 3) == 2)
        #expect(try store.addSubscriptions(ofAccount: "A", [ref(2, "a"), ref(1, "a")], limit: 3) == 3)
        #expect(throws: StoreError.subscriptionLimitExceeded(limit: 3)) {
            try store.addSubscriptions(ofAccount: "A", [ref(3, "x")], limit: 3)
        }
        #expect(try store.subscriptions(ofAccount: "A").count == 3)
        #expect(throws: StoreError.subscriptionLimitExceeded(limit: 1)) {
            try store.replaceSubscriptions(ofAccount: "A", with: [ref(3, "x"), ref(3, "y")], limit: 1)
        }
        #expect(try store.removeSubscriptions(ofAccount: "A", [ref(1, "a"), ref(9, "none")]) == 2)
        #expect(try store.subscriptions(ofAccount: "A") == [ref(1, "b"), ref(2, "a")].sorted())
        #expect(try store.replaceSubscriptions(ofAccount: "A", with: [], limit: 3) == 0)
    }

    @Test(arguments: StoreKind.available) func topicsWithQuotesAndCommasSurvive(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let odd = [ref(1, "a,b"), ref(1, "{x}"), ref(1, "q\"uote"), ref(1, "back\\slash"), ref(1, "NULL"), ref(1, "")]
        #expect(try fixture.store.addSubscriptions(ofAccount: "A", odd, limit: 10) == odd.count)
        #expect(try fixture.store.subscriptions(ofAccount: "A") == odd.sorted())
        _ = try fixture.store.saveRegistration(registration("a1", account: "A"))
        #expect(try fixture.store.recipients(of: [ref(1, "q\"uote")]).map(\.registrationId) == ["a1"])
        #expect(try fixture.store.removeSubscriptions(ofAccount: "A", odd) == 0)
    }

    @Test(arguments: StoreKind.available) func removingASpaceDropsItsSubscriptions(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try store.addSpace(spaceKey(1).string, account: "A", at: t0)
        try store.addSpace(spaceKey(1).string, account: "A", at: t0)  // again: no error
        try store.addSpace(spaceKey(2).string, account: "A", at: t0)
        _ = try store.addSubscriptions(ofAccount: "A", [ref(1, "a"), ref(2, "a")], limit: 10)
        try store.removeSpace(spaceKey(1).string, account: "A")
        #expect(try store.spaces(ofAccount: "A") == [spaceKey(2).string])
        #expect(try store.subscriptions(ofAccount: "A") == [ref(2, "a")])
    }

    @Test(arguments: StoreKind.available) func recipientsAreEveryRegistrationOfEverySubscriberOnce(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        _ = try store.saveRegistration(registration("a1", account: "A", device: "p"))
        _ = try store.saveRegistration(registration("a2", account: "A", device: "q"))
        _ = try store.saveRegistration(registration("b1", account: "B"))
        _ = try store.saveRegistration(registration("c1", account: "C"))
        _ = try store.addSubscriptions(ofAccount: "A", [ref(1, "chats"), ref(1, "A")], limit: 10)
        _ = try store.addSubscriptions(ofAccount: "B", [ref(1, "chats")], limit: 10)
        _ = try store.addSubscriptions(ofAccount: "C", [ref(2, "chats")], limit: 10)
        let found = try store.recipients(of: [ref(1, "chats"), ref(1, "A"), ref(1, "chats")])
        #expect(found.count == 3)
        #expect(Set(found.map(\.registrationId)) == ["a1", "a2", "b1"])
        #expect(found.first { $0.registrationId == "a2" } == Recipient(registrationId: "a2", account: "A", deviceId: "q", platform: .android))
        #expect(try store.recipients(of: []).isEmpty)
    }

    @Test(arguments: StoreKind.available) func duplicatesWriteNothing(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        try filled(fixture)
        let again = try fixture.store.enqueue(notification("n2"), deliveries: [Delivery(registrationId: "f1", provider: .fcm)],
                                              caller: "S", key: IdempotencyKey(bytes: [7]), duplicateSince: t0.addingTimeInterval(-86400))
        #expect(again == .duplicate("n1"))
        #expect(try fixture.count("outbox") == 3)
        #expect(try fixture.count("notifications") == 1)
        #expect(try fixture.store.enqueue(notification("n3"), deliveries: [], caller: "T", key: IdempotencyKey(bytes: [7]),
                                          duplicateSince: t0) == .accepted("n3"))
        #expect(try fixture.store.enqueue(notification("n4"), deliveries: [], caller: "S", key: IdempotencyKey(bytes: [7]),
                                          duplicateSince: t0.addingTimeInterval(1)) == .accepted("n4"))
        #expect(try fixture.store.acceptedNotification(caller: "S", key: IdempotencyKey(bytes: [7]), since: t0) == "n4")
        #expect(try fixture.count("notifications") == 1)
    }

    @Test(arguments: StoreKind.available) func claimCompleteAndRefcountedNotification(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind, claimLease: 30)
        let store = fixture.store
        try filled(fixture)
        let claim = try store.claimDue(provider: .fcm, limit: 10, now: t0)
        #expect(claim.entries.map(\.registration.id).sorted() == ["f1", "f2"])
        #expect(claim.entries.allSatisfy { $0.attempts == 1 && $0.notification == notification("n1") })
        #expect(claim.entries.first?.registration.token == "token-\(claim.entries[0].registration.id)")
        #expect(try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(29)).entries.isEmpty)
        try store.complete(claim.entries.map(\.id))
        #expect(try store.outboxStatistics()[.fcm] == nil)
        #expect(try fixture.count("notifications") == 1)
        let apns = try store.claimDue(provider: .apns, limit: 10, now: t0)
        #expect(apns.entries.map(\.registration.platform) == [.apns])
        try store.complete(apns.entries.map(\.id))
        #expect(try fixture.count("notifications") == 0)
    }

    @Test(arguments: StoreKind.available) func rescheduleRenewAndLeaseExpiry(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind, claimLease: 30)
        let store = fixture.store
        try filled(fixture)
        let first = try store.claimDue(provider: .fcm, limit: 1, now: t0)
        #expect(first.entries.count == 1)
        try store.reschedule(first.entries[0].id, at: t0.addingTimeInterval(100))
        let second = try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(1))
        #expect(second.entries.count == 1 && second.entries[0].id != first.entries[0].id)
        // Renewed at t0+20: held until t0+50, although the first lease ended at t0+31. A queued row is not "held".
        #expect(try store.renewClaims([second.entries[0].id, first.entries[0].id], now: t0.addingTimeInterval(20))
                == [second.entries[0].id])
        #expect(try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(40)).entries.isEmpty)
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
        let again = try fixture.store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(1))
        #expect(again.entries.count == 2)
    }

    @Test(arguments: StoreKind.available) func expiredAndOrphanedRowsAreDroppedAtClaim(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try filled(fixture, ttl: 60)
        #expect(try store.pruneRegistration("f1", notUpdatedAfter: t0.addingTimeInterval(-1)) == false)
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
        #expect(purged == PurgeCounts(idempotencyRecords: 1, notifications: 2, deliveries: 4))
        #expect(try store.acceptedNotification(caller: "S", key: IdempotencyKey(bytes: [8]), since: t0) == "n9")
        #expect(try store.outboxStatistics().isEmpty)
    }

    @Test(arguments: StoreKind.available) func purgeLeavesClaimedRowsToTheirSender(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try filled(fixture, ttl: 60)
        let claimed = try store.claimDue(provider: .fcm, limit: 10, now: t0)
        #expect(claimed.entries.count == 2)
        let purged = try store.purgeExpired(now: t0.addingTimeInterval(61))
        #expect(purged == PurgeCounts(idempotencyRecords: 0, notifications: 0, deliveries: 1))
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
}
