import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// The unclaimed fan-out (`RecipientChunks`): a Notify stores its resolved recipients as a few
/// chunk rows, and claims expand them into outbox rows. Every store answers the same; the SQL
/// stores are also checked to keep the chunks (one row per 256 ids, not one per delivery).
struct RecipientChunkTests {
    @Test func chunksHoldOneProviderAndAtMostTheCapacity() {
        let deliveries = (0..<600).map { Delivery(registrationId: "r\($0)", provider: $0 % 3 == 0 ? .apns : .fcm) }
        let chunks = RecipientChunks.chunks(of: deliveries)
        #expect(chunks.map(\.provider) == [.fcm, .fcm, .apns])
        #expect(chunks.map(\.count) == [256, 144, 200])
        let fcm = chunks.filter { $0.provider == .fcm }.flatMap { RecipientChunks.take(.max, from: $0.registrations).taken }
        #expect(fcm == deliveries.filter { $0.provider == .fcm }.map(\.registrationId))
    }

    @Test func takeSplitsOffThePrefixAndKeepsTheRest() {
        #expect(RecipientChunks.take(2, from: "a,b,c") == (["a", "b"], "c"))
        #expect(RecipientChunks.take(3, from: "a,b,c") == (["a", "b", "c"], ""))
        #expect(RecipientChunks.take(9, from: "a,b,c") == (["a", "b", "c"], ""))
        #expect(RecipientChunks.take(0, from: "a,b") == ([], "a,b"))
        #expect(RecipientChunks.take(1, from: "") == ([], ""))
    }

    /// 600 subscribers' devices on two providers: the Notify writes 3 chunk rows and no outbox
    /// row; claims of 100 expand them in parts, and every delivery is claimed exactly once, while
    /// the status and the queue depth count unexpanded and expanded deliveries alike.
    @Test(arguments: StoreKind.available) func aLargeFanOutIsClaimedInPartsEachDeliveryOnce(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        let expected = try populate(store, fcm: 400, apns: 200)
        let result = try accept("n1", on: store)
        #expect(result == EnqueueResult(.accepted("n1"), queued: 600))
        if kind != .memory {
            #expect(try fixture.count("recipient_chunks") == 3)
            #expect(try fixture.count("outbox") == 0)
        }
        #expect(try store.outboxStatistics() == [.fcm: OutboxStatistics(depth: 400, oldestCreatedAt: t0),
                                                 .apns: OutboxStatistics(depth: 200, oldestCreatedAt: t0)])
        var claimed: [Provider: [String]] = [:]
        let first = try store.claimDue(provider: .fcm, limit: 100, now: t0.addingTimeInterval(1))
        claimed[.fcm, default: []] += first.entries.map(\.registration.id)
        var entryIDs = first.entries.map(\.id)
        let midway = try #require(try store.notificationStatus(id: "n1", caller: "S"))
        #expect(midway.providers[.fcm]?.inFlight == 100 && midway.providers[.fcm]?.queued == 300)
        #expect(midway.providers[.apns]?.queued == 200)
        #expect(try store.outboxStatistics()[.fcm]?.depth == 400)
        for provider in [Provider.fcm, .apns] {
            while case let entries = try store.claimDue(provider: provider, limit: 100, now: t0.addingTimeInterval(1)).entries,
                  !entries.isEmpty {
                #expect(entries.count <= 100)
                claimed[provider, default: []] += entries.map(\.registration.id)
                entryIDs += entries.map(\.id)
                #expect(entries.allSatisfy { $0.notification.id == "n1" && $0.attempts == 1 })
            }
        }
        for provider in [Provider.fcm, .apns] {
            let ids = claimed[provider] ?? []
            #expect(ids.count == Set(ids).count, "a delivery was claimed twice")
            #expect(Set(ids) == expected[provider])
        }
        if kind != .memory { #expect(try fixture.count("recipient_chunks") == 0) }
        try store.complete(entryIDs.map { FinishedDelivery(id: $0, outcome: .delivered) }, at: t0.addingTimeInterval(2))
        let done = try #require(try store.notificationStatus(id: "n1", caller: "S"))
        #expect(done.providers[.fcm]?.delivered == 400 && done.providers[.apns]?.delivered == 200)
        #expect(done.total.queued == 0 && done.total.inFlight == 0)
        #expect(try fixture.count("notifications") == 0)
    }

    /// A fan-out nobody claimed before its ttl: the purge counts every delivery expired, for the
    /// status too, and the notification goes with them.
    @Test(arguments: StoreKind.available) func anUnexpandedFanOutExpiresWhole(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        _ = try populate(store, fcm: 300, apns: 0)
        try accept("n1", ttl: 60, on: store)
        #expect(try store.purgeExpired(now: t0.addingTimeInterval(59)).deliveries == 0)
        var expired = 0
        while case let counts = try store.purgeExpired(now: t0.addingTimeInterval(61)), counts.deliveries > 0 {
            expired += counts.deliveries
        }
        #expect(expired == 300)
        let status = try #require(try store.notificationStatus(id: "n1", caller: "S"))
        #expect(status.providers[.fcm]?.expired == 300 && status.total.queued == 0)
        #expect(try store.outboxStatistics().isEmpty)
        #expect(try fixture.count("notifications") == 0)
        if kind != .memory { #expect(try fixture.queuedDeliveries() == 0) }
    }

    /// Claimed after its ttl, a chunk's deliveries are dropped as expired by the claim itself.
    @Test(arguments: StoreKind.available) func aClaimDropsAnExpiredChunk(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        _ = try populate(store, fcm: 50, apns: 0)
        try accept("n1", ttl: 60, on: store)
        let claim = try store.claimDue(provider: .fcm, limit: 100, now: t0.addingTimeInterval(61))
        #expect(claim.entries.isEmpty && claim.expired == 50)
        #expect(try store.notificationStatus(id: "n1", caller: "S")?.providers[.fcm]?.expired == 50)
        #expect(try fixture.count("notifications") == 0)
    }

    /// `replaces` withdraws the group's earlier deliveries to the devices it reaches whether they
    /// were expanded (here: claimed, in flight) or still in a chunk.
    @Test(arguments: StoreKind.available) func aReplacingNotifyWithdrawsExpandedAndUnexpandedDeliveries(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        _ = try populate(store, fcm: 300, apns: 0)
        try accept("n1", on: store)
        let inFlight = try store.claimDue(provider: .fcm, limit: 40, now: t0.addingTimeInterval(1)).entries
        #expect(inFlight.count == 40)
        let clear = FanOut(kind: .clear, enabledPlatforms: Set(Platform.allCases), replacesGroup: "g")
        let result = try store.enqueue(notification("n2", kind: .clear), fanningOut: clear, to: [ref(1, "a")], caller: "S",
                                       key: IdempotencyKey(bytes: [2]), duplicateSince: t0.addingTimeInterval(-60))
        #expect(result == EnqueueResult(.accepted("n2"), queued: 300, superseded: 300))
        let first = try #require(try store.notificationStatus(id: "n1", caller: "S"))
        #expect(first.providers[.fcm]?.superseded == 300 && first.total.queued == 0 && first.total.inFlight == 0)
        // The in-flight sends' later answers find nothing to complete or reschedule.
        try store.complete(inFlight.map { FinishedDelivery(id: $0.id, outcome: .delivered) }, at: t0.addingTimeInterval(2))
        #expect(try store.notificationStatus(id: "n1", caller: "S")?.providers[.fcm]?.delivered == 0)
        let next = try store.claimDue(provider: .fcm, limit: 1000, now: t0.addingTimeInterval(3)).entries
        #expect(next.count == 300 && next.allSatisfy { $0.notification.id == "n2" })
    }

    /// A claim left unfinished (a crashed sender) loses nothing: after a reopen its expanded rows
    /// come due again at the lease end and the rest of the chunk is still there, each once.
    @Test(arguments: StoreKind.available) func aReopenAfterAPartialExpansionKeepsEveryDeliveryOnce(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind, claimLease: 30)
        _ = try populate(fixture.store, fcm: 300, apns: 0)
        try accept("n1", on: fixture.store)
        let before = try fixture.store.claimDue(provider: .fcm, limit: 70, now: t0.addingTimeInterval(1)).entries
        try fixture.reopen()
        var ids = before.map(\.registration.id)
        while case let entries = try fixture.store.claimDue(provider: .fcm, limit: 64, now: t0.addingTimeInterval(40)).entries,
              !entries.isEmpty {
            ids += entries.map(\.registration.id)
        }
        // The 70 claimed before the reopen come again (their lease ended), each once; the rest once.
        #expect(ids.count == 370)
        #expect(Set(ids).count == 300)
    }

    /// A message Notify `id` from caller "S" to the subscribers of topic (1, "a"), keyed by its id.
    @discardableResult
    private func accept(_ id: String, ttl: TimeInterval = 3600, on store: any PushStore) throws -> EnqueueResult {
        let fanOut = FanOut(kind: .message, enabledPlatforms: Set(Platform.allCases))
        return try store.enqueue(notification(id, ttl: ttl), fanningOut: fanOut, to: [ref(1, "a")], caller: "S",
                                 key: IdempotencyKey(bytes: Array(id.utf8)), duplicateSince: t0.addingTimeInterval(-60))
    }

    /// `count` subscribers of topic (1, "a"), one device each, on FCM then APNs; their
    /// registration ids per provider.
    private func populate(_ store: any PushStore, fcm: Int, apns: Int) throws -> [Provider: Set<String>] {
        var ids: [Provider: Set<String>] = [:]
        for index in 0..<(fcm + apns) {
            let platform: Platform = index < fcm ? .android : .apns
            let id = String(format: "%032x", index + 1)
            _ = try store.saveRegistration(registration(id, account: "A\(index)", platform: platform, token: "ab\(index)"))
            _ = try store.replaceSubscriptions(ofAccount: "A\(index)", with: [ref(1, "a")], limit: 10)
            ids[platform.provider, default: []].insert(id)
        }
        return ids
    }
}
