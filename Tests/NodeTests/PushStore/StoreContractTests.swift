import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// The `PushStore` contract for registrations, spaces and subscriptions, run against every store
/// (memory and SQLite always; PostgreSQL when `PUSHNODE_TEST_PG_URL` names a test cluster). The
/// notification and outbox half is `OutboxTests`, the fan-out rule `FanOutTests`.
@Suite struct StoreContractTests {
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
        #expect(try fixture.store.enqueue(notification("again"), deliveries: [], caller: "B", key: IdempotencyKey(bytes: [1]),
                                          duplicateSince: t0) == .duplicate("n1"))
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

    @Test(arguments: StoreKind.available) func registrationsAreCountedPerPlatformOverEveryAccount(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        #expect(try store.registrationCounts().isEmpty)
        _ = try store.saveRegistration(registration("r1", account: "A", device: "p1"))
        _ = try store.saveRegistration(registration("r2", account: "B", device: "p2"))
        _ = try store.saveRegistration(registration("w1", account: "A", device: "p1", platform: .webpush))
        _ = try store.saveRegistration(registration("a1", account: "C", device: "p3", platform: .apns))
        #expect(try store.registrationCounts() == [.android: 2, .webpush: 1, .apns: 1])
        // A rotated token replaces its registration; a revoked one is no longer counted.
        _ = try store.saveRegistration(registration("r3", account: "B", device: "p2"))
        #expect(try store.deleteRegistrations(ofAccount: "C", deviceId: "p3") == 1)
        #expect(try store.registrationCounts() == [.android: 2, .webpush: 1])
        try fixture.reopen()
        #expect(try fixture.store.registrationCounts() == [.android: 2, .webpush: 1])
    }

    @Test(arguments: StoreKind.available) func registrationsAreCountedPerStoredApp(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        #expect(try store.registrationCountsByApp().isEmpty)
        _ = try store.saveRegistration(registration("r1", account: "A", device: "p1"))
        _ = try store.saveRegistration(registration("r2", account: "B", device: "p2", appId: "chat"))
        _ = try store.saveRegistration(registration("w2", account: "B", device: "p2", platform: .webpush, appId: "chat"))
        _ = try store.saveRegistration(registration("r3", account: "C", device: "p3", appId: ""))
        #expect(try store.registrationCountsByApp() == ["default": 1, "chat": 2, "": 1])
    }

    /// The readiness probe's write (PROTOCOL §3.3) commits, each time, and fails like every write once
    /// the store is closed.
    @Test(arguments: StoreKind.available) func theWriteProbeCommits(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let before = fixture.store.statistics().commits
        try fixture.store.probeWrite()
        try fixture.store.probeWrite()
        #expect(fixture.store.statistics().commits - before == 2)
        fixture.store.close()
        #expect(throws: StoreError.closed) { try fixture.store.probeWrite() }
    }

    /// Closing a store drops its enqueue handlers and what they hold: the delivery engine's wakeup
    /// holds the engine, which holds the store.
    @Test(arguments: StoreKind.available) func closingDropsTheEnqueueHandlers(kind: StoreKind) throws {
        final class Engine: Sendable {}
        let fixture = try ContractFixture(kind)
        var engine: Engine? = Engine()
        weak let watched = engine
        fixture.store.onEnqueue { [engine] in _ = engine }
        engine = nil
        #expect(watched != nil)
        fixture.store.close()
        #expect(watched == nil)
    }

    @Test(arguments: StoreKind.available) func keysRoundTrip(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        var webpush = registration("w", account: "A", platform: .webpush, token: "https://push.example/x?a=\"b\"")
        webpush.address.p256dh = [4] + [UInt8](repeating: 7, count: 64)
        webpush.address.auth = [UInt8](repeating: 3, count: 16)
        _ = try fixture.store.saveRegistration(webpush)
        #expect(try fixture.store.registrations(ofAccount: "A") == [webpush])
        #expect(try fixture.store.registration(id: "w") == webpush)  // by id, whichever account holds it
        #expect(try fixture.store.registration(id: "nothing") == nil)
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

    @Test(arguments: StoreKind.available) func aClosedStoreThrows(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        fixture.store.close()
        #expect(throws: StoreError.closed) { try fixture.store.addSpace("k", account: "A", at: t0) }
        #expect(throws: StoreError.closed) { try fixture.store.spaces(ofAccount: "A") }
        #expect(throws: StoreError.closed) { try fixture.store.claimDue(provider: .fcm, limit: 1, now: t0) }
    }

    /// Many threads writing at once, none coordinating: every write lands, and each account's
    /// subscription count is exact (each store serializes what must be serialized).
    @Test(arguments: StoreKind.available) func concurrentWritersAllLand(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        let failures = Box(0)
        concurrently(8) { thread in
            for i in 0..<20 {
                do {
                    _ = try store.saveRegistration(registration("r\(thread)-\(i)", account: "A\(thread)", device: "d\(i)"))
                    _ = try store.addSubscriptions(ofAccount: "A\(thread % 2)", [ref(1, "t\(thread)-\(i)")], limit: 1000)
                } catch {
                    failures.mutate { $0 += 1 }
                }
            }
        }
        #expect(failures.current == 0)
        #expect(try (0..<8).map { try store.registrations(ofAccount: "A\($0)").count } == [Int](repeating: 20, count: 8))
        #expect(try store.subscriptions(ofAccount: "A0").count == 80)
        #expect(try store.subscriptions(ofAccount: "A1").count == 80)
    }
}
