import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// `replaces` on every store (PROTOCOL §4.1): in the transaction that accepts a replacing Notify,
/// the same caller's earlier deliveries of the group to the devices it reaches are withdrawn —
/// queued, waiting for a retry, or claimed — and nothing else is.
@Suite struct SupersedeTests {
    private static let topic = ref(1, "chats")
    private static let other = ref(1, "other")
    private static let window = t0.addingTimeInterval(-60)

    /// B's phone d1 (FCM, APNs alert, APNs VoIP), B's tablet d2 (FCM), C's phone (FCM), all on
    /// `chats`; D's phone (FCM) on `other` only.
    private func populate(_ store: any PushStore) throws {
        _ = try store.saveRegistration(registration("b1-fcm", account: "B", device: "d1", platform: .android))
        _ = try store.saveRegistration(registration("b1-apns", account: "B", device: "d1", platform: .apns))
        _ = try store.saveRegistration(registration("b1-voip", account: "B", device: "d1", platform: .apnsVoip))
        _ = try store.saveRegistration(registration("b2-fcm", account: "B", device: "d2", platform: .android))
        _ = try store.saveRegistration(registration("c1-fcm", account: "C", device: "d1", platform: .android))
        _ = try store.saveRegistration(registration("d1-fcm", account: "D", device: "d1", platform: .android))
        for account in ["B", "C"] { _ = try store.replaceSubscriptions(ofAccount: account, with: [Self.topic], limit: 10) }
        _ = try store.replaceSubscriptions(ofAccount: "D", with: [Self.other], limit: 10)
    }

    private func record(_ id: String, _ kind: NotifyKind, group: String) -> NotificationRecord {
        var record = notification(id, kind: kind)
        record.groupId = group
        return record
    }

    private func send(_ store: any PushStore, _ id: String, _ kind: NotifyKind, group: String, caller: String = "S",
                      topics: [TopicRef] = [topic], replaces: Bool = false, excludedDevice: (String, String)? = nil,
                      key: IdempotencyKey? = nil) throws -> EnqueueResult {
        let fanOut = FanOut(kind: kind, enabledPlatforms: Set(Platform.allCases), excludedAccount: caller,
                            excludedDevice: excludedDevice, replacesGroup: replaces ? group : nil)
        return try store.enqueue(record(id, kind, group: group), fanningOut: fanOut, to: topics, caller: caller,
                                 key: key ?? IdempotencyKey(bytes: Array(id.utf8)), duplicateSince: Self.window)
    }

    /// Every due row, as (notification id, registration id), claimed and completed.
    private func drain(_ store: any PushStore) throws -> Set<String> {
        var rows = Set<String>()
        for provider in Provider.allCases {
            let claim = try store.claimDue(provider: provider, limit: 1000, now: t0.addingTimeInterval(10))
            rows.formUnion(claim.entries.map { "\($0.notification.id)>\($0.registration.id)" })
            try store.complete(claim.entries.map(\.id))
        }
        return rows
    }

    @Test(arguments: StoreKind.available)
    func aClearWithdrawsTheRingOfItsCallOnEveryDeviceItReaches(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try populate(store)
        #expect(try send(store, "ring", .call, group: "call-1").queued == 3)   // b1-voip, b2-fcm, c1-fcm
        #expect(try send(store, "chat", .message, group: "chat-1").queued == 4)
        #expect(try send(store, "ring-other", .call, group: "call-1", caller: "T").queued == 3)
        let clear = try send(store, "clear", .clear, group: "call-1", replaces: true)
        // The ring to B's VoIP token goes too, though the clear itself never goes over VoIP.
        #expect(clear == EnqueueResult(.accepted("clear"), queued: 4, superseded: 3))
        #expect(try drain(store) == [
            "chat>b1-fcm", "chat>b1-apns", "chat>b2-fcm", "chat>c1-fcm",
            "ring-other>b1-voip", "ring-other>b2-fcm", "ring-other>c1-fcm",
            "clear>b1-fcm", "clear>b1-apns", "clear>b2-fcm", "clear>c1-fcm",
        ])
        #expect(try fixture.count("notifications") == 0)
    }

    @Test(arguments: StoreKind.available)
    func aClaimedDeliveryIsWithdrawnAndItsRescheduleFindsNothing(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try populate(store)
        _ = try send(store, "ring", .call, group: "call-1")
        let claimed = try store.claimDue(provider: .fcm, limit: 10, now: t0)
        #expect(claimed.entries.count == 2)
        #expect(try send(store, "clear", .clear, group: "call-1", replaces: true).superseded == 3)
        // The claiming sender's answer was a retry: the row is gone, so it never comes due again.
        for entry in claimed.entries { try store.reschedule(entry.id, at: t0.addingTimeInterval(1)) }
        #expect(try store.renewClaims(claimed.entries.map(\.id), now: t0).isEmpty)
        #expect(try drain(store) == ["clear>b1-fcm", "clear>b1-apns", "clear>b2-fcm", "clear>c1-fcm"])
    }

    @Test(arguments: StoreKind.available)
    func onlyTheDevicesReachedLoseTheirPushes(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try populate(store)
        _ = try send(store, "read-1", .silent, group: "chat-1", topics: [Self.topic, Self.other])
        // A read on B's tablet: its own rows stay (it gets nothing of the new one either), D is not reached.
        let read = try send(store, "read-2", .silent, group: "chat-1", replaces: true, excludedDevice: ("B", "d2"))
        #expect(read == EnqueueResult(.accepted("read-2"), queued: 3, superseded: 3))
        #expect(try drain(store) == [
            "read-1>b2-fcm", "read-1>d1-fcm",
            "read-2>b1-fcm", "read-2>b1-apns", "read-2>c1-fcm",
        ])
    }

    @Test(arguments: StoreKind.available)
    func withoutReplacesOrAsADuplicateNothingIsWithdrawn(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try populate(store)
        _ = try send(store, "m1", .message, group: "chat-1")
        #expect(try send(store, "m2", .message, group: "chat-1").superseded == 0)
        let again = try send(store, "m3", .message, group: "chat-1", replaces: true, key: IdempotencyKey(bytes: Array("m2".utf8)))
        #expect(again == EnqueueResult(.duplicate("m2")))
        #expect(try drain(store).count == 8)
    }

    /// The form PostgreSQL's fan-out uses, and the key-less form of a content-free wake.
    @Test(arguments: StoreKind.available)
    func fixedDeliveriesSupersedeAndAWakeWithoutAKeyIsNeverADuplicate(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try populate(store)
        _ = try send(store, "m1", .message, group: "chat-1")
        let deliveries = [Delivery(registrationId: "c1-fcm", provider: .fcm)]
        let supersession = Supersession(groupId: "chat-1", devices: [DeviceRef(account: "C", deviceId: "d1")])
        for id in ["w1", "w2"] {
            var wake = record(id, .message, group: "chat-1")
            (wake.keyId, wake.payload, wake.signature) = (nil, nil, nil)
            let result = try store.enqueue(wake, deliveries: deliveries, superseding: supersession, caller: "S", key: nil,
                                           duplicateSince: Self.window)
            #expect(result == EnqueueResult(.accepted(id), queued: 1, superseded: 1))
        }
        #expect(try drain(store) == ["m1>b1-fcm", "m1>b1-apns", "m1>b2-fcm", "w2>c1-fcm"])
        #expect(try fixture.count("idempotency") == 1)
    }
}
