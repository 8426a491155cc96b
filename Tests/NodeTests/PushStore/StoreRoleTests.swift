import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushEngine
@testable import PushService
@testable import PushStore

/// The store's roles apart: each user takes the role it calls, and a store that holds one role
/// serves that user alone.
@Suite struct StoreRoleTests {
    let space = TestSpace(seed: 9)

    /// A notification store and nothing else: it records what it is asked to write and resolves a
    /// fan-out against the registry it is given.
    final class RecordingNotifications: NotificationStore, @unchecked Sendable {
        let registry: any RegistryStore
        let written = Box<[(record: NotificationRecord, deliveries: [Delivery], superseding: Supersession?)]>([])
        let probes = Box(0)

        init(registry: any RegistryStore) { self.registry = registry }

        func enqueue(_ notification: NotificationRecord, deliveries: [Delivery], superseding: Supersession?, caller: String,
                     key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult {
            written.mutate { $0.append((notification, deliveries, superseding)) }
            return EnqueueResult(.accepted(notification.id), queued: deliveries.count)
        }
        func enqueue(_ notification: NotificationRecord, fanningOut fanOut: FanOut, to topics: [TopicRef], caller: String,
                     key: IdempotencyKey?, duplicateSince: Date) throws -> EnqueueResult {
            try fanOut.enqueue(notification, to: topics, recipientsFrom: registry, into: self, caller: caller, key: key,
                               duplicateSince: duplicateSince)
        }
        func notificationStatus(id: String, caller: String) throws -> NotificationStatus? { nil }
        func probeWrite() throws { probes.mutate { $0 += 1 } }
    }

    /// The portable fan-out reads the recipients from the registry role and writes one
    /// `enqueue` into the notification role: each registration the fan-out admits once, the
    /// excluded device skipped, the group's devices superseded.
    @Test func thePortableFanOutReadsOneRoleAndWritesTheOther() throws {
        let registry = MemoryStore()
        defer { registry.close() }
        _ = try registry.saveRegistration(registration("r1", account: "A", device: "d1"))
        _ = try registry.saveRegistration(registration("r2", account: "A", device: "d2", platform: .ios))
        _ = try registry.saveRegistration(registration("r3", account: "B", device: "d1"))
        for account in ["A", "B"] {
            _ = try registry.replaceSubscriptions(ofAccount: account, with: [ref(1, "chats")], limit: 10)
        }
        let notifications = RecordingNotifications(registry: registry)
        let fanOut = FanOut(kind: .message, enabledPlatforms: Set(Platform.allCases), excludedDevice: ("A", "d2"),
                            replacesGroup: "g")
        let result = try notifications.enqueue(notification("n1"), fanningOut: fanOut, to: [ref(1, "chats"), ref(2, "none")],
                                               caller: "S", key: nil, duplicateSince: .distantPast)
        #expect(result == EnqueueResult(.accepted("n1"), queued: 2))
        let written = try #require(notifications.written.current.first)
        #expect(notifications.written.current.count == 1)
        #expect(Set(written.deliveries.map(\.registrationId)) == ["r1", "r3"])
        #expect(written.superseding == Supersession(groupId: "g", devices: [DeviceRef(account: "A", deviceId: "d1"),
                                                                            DeviceRef(account: "B", deviceId: "d1")]))
        #expect(try registry.outboxStatistics().isEmpty)  // the registry's own notification role wrote nothing
    }

    /// The service over two stores, one per role: tokens, spaces and subscriptions go to the
    /// registry, a Notify and the readiness probe's write to the notification store.
    @Test func theServiceSendsEachCallToItsRole() throws {
        let registry = MemoryStore(clock: { t0 })
        defer { registry.close() }
        let notifications = RecordingNotifications(registry: registry)
        let service = PushService(registry: registry, notifications: notifications, configuration: .init(),
                                  resolver: FakeResolver(), clock: { t0 })
        let sender = account(1), alice = account(2)
        let phone = try service.setToken(SetTokenRequest(deviceId: "phone", platform: .android, token: "tok-alice"),
                                         caller: alice.accountID).registrationId
        _ = try service.subscribe(.init(topics: [space.topic("chats")]), caller: alice.accountID)
        #expect(try registry.subscriptions(ofAccount: alice.accountID.string).map(\.topic) == ["chats"])

        let payload = (0..<100).map { UInt8($0) }
        let message = NotifyMessage(keyId: String(repeating: "c", count: 64), payload: payload, signature: sender.sign(payload))
        let sent = try service.notify(NotifyRequest(topics: [space.topic("chats")], message: message), caller: sender.accountID)
        #expect(notifications.written.current.map(\.record.id) == [sent.id])
        #expect(notifications.written.current.first?.deliveries.map(\.registrationId) == [phone])
        #expect(try registry.outboxStatistics().isEmpty)

        service.storageHealth.recordFailure(.write, LeakyStoreError())
        #expect(service.probeStorage() && notifications.probes.current == 1)
    }

    /// An outbox store and nothing else: it forwards to another store's outbox and counts the calls.
    final class CountingOutbox: OutboxStore, @unchecked Sendable {
        let base: any OutboxStore
        let calls = Box<[String: Int]>([:])

        init(_ base: any OutboxStore) { self.base = base }

        private func counted<T>(_ name: String, _ body: () throws -> T) rethrows -> T {
            calls.mutate { $0[name, default: 0] += 1 }
            return try body()
        }

        func claimDue(provider: Provider, apps: AppFilter, limit: Int, now: Date) throws -> OutboxClaim {
            try counted("claimDue") { try base.claimDue(provider: provider, apps: apps, limit: limit, now: now) }
        }
        func complete(_ finished: [FinishedDelivery], at now: Date) throws {
            try counted("complete") { try base.complete(finished, at: now) }
        }
        func reschedule(_ entryID: Int64, at date: Date) throws { try counted("reschedule") { try base.reschedule(entryID, at: date) } }
        func release(_ entryIDs: [Int64], until date: Date) throws { try counted("release") { try base.release(entryIDs, until: date) } }
        func renewClaims(_ entryIDs: [Int64], now: Date) throws -> Set<Int64> {
            try counted("renewClaims") { try base.renewClaims(entryIDs, now: now) }
        }
        func onEnqueue(_ handler: @escaping @Sendable () -> Void) { counted("onEnqueue") { base.onEnqueue(handler) } }
        func pruneRegistration(_ registrationId: String, notUpdatedAfter: Date) throws -> Bool {
            try counted("pruneRegistration") { try base.pruneRegistration(registrationId, notUpdatedAfter: notUpdatedAfter) }
        }
        func outboxStatistics() throws -> [Provider: OutboxStatistics] { try counted("outboxStatistics") { try base.outboxStatistics() } }
        func purgeExpired(now: Date) throws -> PurgeCounts { try counted("purgeExpired") { try base.purgeExpired(now: now) } }
    }

    /// The delivery engine drains a store it knows only as the outbox role: the delivery is claimed
    /// and completed through it, and the outbox gauges read its statistics.
    @Test func theEngineDrainsAStoreOfTheOutboxRoleAlone() throws {
        let counting = Box<CountingOutbox?>(nil)
        let f = EngineFixture(outbox: { store in
            let outbox = CountingOutbox(store)
            counting.mutate { $0 = outbox }
            return outbox
        })
        let outbox = try #require(counting.current)
        f.engine.start()
        try f.queue("tok-1")
        waitUntil { f.count("delivered") == 1 && f.depth(.fcm) == 0 }
        #expect(outbox.calls.current["claimDue", default: 0] >= 1 && outbox.calls.current["complete"] == 1)
        #expect(f.metrics.render().contains(#"pushnode_outbox_depth{provider="fcm"} 0"#))
        #expect(outbox.calls.current["outboxStatistics", default: 0] >= 1)
    }
}
