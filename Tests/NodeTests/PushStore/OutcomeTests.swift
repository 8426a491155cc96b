import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// A notification's status and a registration's last outcome on every store (PROTOCOL §4.4):
/// deliveries still in the outbox by state, finished ones by outcome, per provider; visible to
/// its caller only, and forgotten after the outcome retention.
@Suite struct OutcomeTests {
    private static let topic = ref(1, "chats")

    /// B's phone (FCM and APNs) and C's phone (FCM), on `chats`.
    private func populate(_ store: any PushStore) throws {
        _ = try store.saveRegistration(registration("b-fcm", account: "B", device: "d1", platform: .android))
        _ = try store.saveRegistration(registration("b-apns", account: "B", device: "d1", platform: .apns))
        _ = try store.saveRegistration(registration("c-fcm", account: "C", device: "d1", platform: .android))
        for account in ["B", "C"] { _ = try store.replaceSubscriptions(ofAccount: account, with: [Self.topic], limit: 10) }
    }

    private func send(_ store: any PushStore, _ id: String, kind: NotifyKind = .message, topics: [TopicRef] = [topic],
                      replaces: Bool = false, at date: Date = t0) throws -> EnqueueResult {
        let fanOut = FanOut(kind: kind, enabledPlatforms: Set(Platform.allCases), excludedAccount: "S",
                            replacesGroup: replaces ? "g" : nil)
        return try store.enqueue(notification(id, kind: kind, at: date), fanningOut: fanOut, to: topics, caller: "S",
                                 key: IdempotencyKey(bytes: Array(id.utf8)), duplicateSince: date.addingTimeInterval(-60))
    }

    private func counts(_ status: NotificationStatus?, _ provider: Provider) -> DeliveryStateCounts {
        status?.providers[provider] ?? DeliveryStateCounts()
    }

    private func last(_ store: any PushStore, _ account: String, _ id: String) throws -> (Date?, String?) {
        let found = try store.registrations(ofAccount: account).first { $0.id == id }
        return (found?.lastDeliveryAt, found?.lastOutcome)
    }

    @Test(arguments: StoreKind.available)
    func aStatusFollowsEachDeliveryFromQueuedToItsOutcome(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try populate(store)
        _ = try send(store, "n1")
        var status = try #require(try store.notificationStatus(id: "n1", caller: "S"))
        #expect(status.createdAt == t0)
        #expect(counts(status, .fcm).queued == 2 && counts(status, .apns).queued == 1 && status.total.queued == 3)
        #expect(try store.notificationStatus(id: "n1", caller: "B") == nil)
        #expect(try store.notificationStatus(id: "nope", caller: "S") == nil)

        let claimed = try store.claimDue(provider: .fcm, limit: 10, now: t0).entries
        #expect(counts(try store.notificationStatus(id: "n1", caller: "S"), .fcm).inFlight == 2)
        let delivered = try #require(claimed.first { $0.registration.id == "b-fcm" })
        let failed = try #require(claimed.first { $0.registration.id == "c-fcm" })
        try store.complete([FinishedDelivery(id: delivered.id, outcome: .delivered)], at: t0.addingTimeInterval(1))
        try store.reschedule(failed.id, at: t0.addingTimeInterval(30))
        status = try #require(try store.notificationStatus(id: "n1", caller: "S"))
        var fcm = DeliveryStateCounts()
        (fcm.delivered, fcm.retrying, fcm.nextAttemptAt) = (1, 1, t0.addingTimeInterval(30))
        #expect(counts(status, .fcm) == fcm)
        #expect(try last(store, "B", "b-fcm") == (t0.addingTimeInterval(1), "delivered"))
        #expect(try last(store, "C", "c-fcm") == (nil, "retrying"))
        #expect(try last(store, "B", "b-apns") == (nil, nil))

        // A replacing Notify of the group withdraws the retrying and the queued one: superseded, no try.
        #expect(try send(store, "n2", kind: .clear, replaces: true).superseded == 2)
        status = try #require(try store.notificationStatus(id: "n1", caller: "S"))
        #expect(counts(status, .fcm).delivered == 1 && counts(status, .fcm).superseded == 1 && counts(status, .fcm).retrying == 0)
        #expect(counts(status, .apns).superseded == 1 && status.total.superseded == 2)
        #expect(try last(store, "C", "c-fcm") == (nil, "retrying"))

        // The rest of n2 ends in every other way.
        for provider in [Provider.fcm, .apns] {
            for entry in try store.claimDue(provider: provider, limit: 10, now: t0.addingTimeInterval(40)).entries {
                let outcome: FinalOutcome = entry.registration.id == "b-fcm" ? .dead : entry.registration.id == "c-fcm" ? .rejected : .expired
                try store.complete([FinishedDelivery(id: entry.id, outcome: outcome)], at: t0.addingTimeInterval(41))
            }
        }
        status = try #require(try store.notificationStatus(id: "n2", caller: "S"))
        #expect((counts(status, .fcm).dead, counts(status, .fcm).rejected, counts(status, .apns).expired) == (1, 1, 1))
        #expect(status.total.queued + status.total.inFlight + status.total.retrying == 0)
        #expect(try last(store, "B", "b-fcm") == (t0.addingTimeInterval(1), "dead"))
        #expect(try fixture.count("notifications") == 0)
    }

    /// Two notifications to everyone on `chats`, their FCM rows claimed (two per registration).
    private func twoNotificationsClaimed(_ kind: StoreKind) throws -> (ContractFixture, [OutboxEntry]) {
        let fixture = try ContractFixture(kind)
        try populate(fixture.store)
        _ = try send(fixture.store, "n1")
        _ = try send(fixture.store, "n2")
        return (fixture, try fixture.store.claimDue(provider: .fcm, limit: 10, now: t0).entries)
    }

    /// The lane completes a batch spanning several notifications' fan-outs: each row counted once
    /// for its own notification, each notification gone with its last row.
    @Test(arguments: StoreKind.available)
    func oneBatchOverSeveralNotificationsCountsEveryRowForItsOwn(kind: StoreKind) throws {
        let (fixture, fcm) = try twoNotificationsClaimed(kind)
        let store = fixture.store
        #expect(fcm.count == 4)
        try store.complete(fcm.map { FinishedDelivery(id: $0.id, outcome: $0.registration.id == "b-fcm" ? .delivered : .rejected) },
                           at: t0.addingTimeInterval(2))
        for id in ["n1", "n2"] {
            let status = try #require(try store.notificationStatus(id: id, caller: "S"))
            #expect(counts(status, .fcm).delivered == 1 && counts(status, .fcm).rejected == 1 && counts(status, .apns).queued == 1)
        }
        #expect(try fixture.count("notifications") == 2)  // each still has its APNs row
        let apns = try store.claimDue(provider: .apns, limit: 10, now: t0).entries
        try store.complete(apns.map { FinishedDelivery(id: $0.id, outcome: .delivered) }, at: t0.addingTimeInterval(3))
        #expect(try fixture.count("notifications") == 0)
        #expect(try counts(store.notificationStatus(id: "n2", caller: "S"), .apns).delivered == 1)
        #expect(try last(store, "B", "b-fcm") == (t0.addingTimeInterval(2), "delivered"))
        #expect(try last(store, "C", "c-fcm") == (nil, "rejected"))
    }

    /// A registration finished twice in one batch (two notifications to one device) keeps the
    /// outcome that came last in the batch, and the delivery time of the one delivered.
    @Test(arguments: StoreKind.available)
    func aRegistrationFinishedTwiceInABatchKeepsItsLastOutcome(kind: StoreKind) throws {
        let (fixture, fcm) = try twoNotificationsClaimed(kind)
        let store = fixture.store
        let ofB = fcm.filter { $0.registration.id == "b-fcm" }.map(\.id).sorted()
        let ofC = fcm.filter { $0.registration.id == "c-fcm" }.map(\.id).sorted()
        #expect(ofB.count == 2 && ofC.count == 2)
        try store.complete([FinishedDelivery(id: ofB[0], outcome: .delivered), FinishedDelivery(id: ofC[0], outcome: .delivered),
                            FinishedDelivery(id: ofB[1], outcome: .rejected), FinishedDelivery(id: ofC[1], outcome: .superseded)],
                           at: t0.addingTimeInterval(5))
        #expect(try last(store, "B", "b-fcm") == (t0.addingTimeInterval(5), "rejected"))
        #expect(try last(store, "C", "c-fcm") == (t0.addingTimeInterval(5), "delivered"))
        for id in ["n1", "n2"] {
            let status = try #require(try store.notificationStatus(id: id, caller: "S"))
            #expect(counts(status, .fcm).queued + counts(status, .fcm).inFlight == 0)
        }
    }

    @Test(arguments: StoreKind.available)
    func aNotifyThatReachedNobodyHasAnEmptyStatusUntilTheRetentionEnds(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try populate(store)
        #expect(try send(store, "empty", topics: [ref(2, "nobody")]).queued == 0)
        let status = try #require(try store.notificationStatus(id: "empty", caller: "S"))
        #expect(status.providers.isEmpty && status.total == DeliveryStateCounts())
        _ = try send(store, "later", at: t0.addingTimeInterval(3600))
        #expect(try store.purgeExpired(now: t0.addingTimeInterval(86_400 + 1)).statuses == 1)
        #expect(try store.notificationStatus(id: "empty", caller: "S") == nil)
        #expect(try store.notificationStatus(id: "later", caller: "S") != nil)
    }

    @Test(arguments: StoreKind.available)
    func anExpiredRowIsCountedAndTheLastOutcomeSurvivesOnlyTheSameAccountsSave(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try populate(store)
        _ = try store.enqueue(notification("short", at: t0, ttl: 5), fanningOut: FanOut(kind: .message, enabledPlatforms: [.android]),
                              to: [Self.topic], caller: "S", key: IdempotencyKey(bytes: [9]), duplicateSince: t0)
        let claim = try store.claimDue(provider: .fcm, limit: 10, now: t0.addingTimeInterval(10))
        #expect(claim.expired == 2)
        #expect(counts(try store.notificationStatus(id: "short", caller: "S"), .fcm).expired == 2)
        #expect(try last(store, "B", "b-fcm").1 == "expired")
        _ = try store.saveRegistration(registration("b-fcm", account: "B", device: "d1", platform: .android, at: t0.addingTimeInterval(20)))
        #expect(try last(store, "B", "b-fcm").1 == "expired")
        _ = try store.saveRegistration(registration("b-fcm", account: "D", device: "d1", platform: .android, at: t0.addingTimeInterval(30)))
        #expect(try last(store, "D", "b-fcm") == (nil, nil))
    }
}
