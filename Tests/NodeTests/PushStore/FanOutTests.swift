import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// Every store's `enqueue(_:fanningOut:…)` against the portable rule (`FanOut.deliveries(to:)` over
/// `recipients(of:)`) on seeded random populations: the same deliveries, every kind and exclusion.
/// For SQLite that checks its `INSERT … SELECT`; memory applies the rule inside its write;
/// PostgreSQL uses the protocol's default.
@Suite struct FanOutTests {
    private struct SplitMix: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    private static let topics = [ref(1, "a"), ref(1, "b"), ref(2, "a"), ref(2, "c")]

    /// Accounts A0…A5 with up to 3 devices, each with a random set of platforms and apps.
    private func populate(_ store: any PushStore, seed: UInt64) throws {
        var rng = SplitMix(state: seed)
        var serial = 0
        for account in (0..<6).map({ "A\($0)" }) {
            for device in (0..<Int.random(in: 1...3, using: &rng)).map({ "d\($0)" }) {
                for platform in Platform.allCases where Bool.random(using: &rng) {
                    serial += 1
                    let app = Bool.random(using: &rng) ? "default" : "other"
                    _ = try store.saveRegistration(registration("r\(serial)", account: account, device: device,
                                                                platform: platform, token: "t\(serial)", appId: app))
                }
            }
            let held = Self.topics.filter { _ in Int.random(in: 0..<3, using: &rng) > 0 }
            _ = try store.replaceSubscriptions(ofAccount: account, with: held, limit: 100)
        }
    }

    /// What `enqueue` queued for notification `id` (the only one queued), found by claiming it;
    /// then completes it row by row, checking its notification lives exactly until the last one.
    private func drainQueued(_ fixture: ContractFixture, id: String) throws -> Set<Delivery> {
        var rows: [(entry: OutboxEntry, provider: Provider)] = []
        for provider in Provider.allCases {
            rows += try fixture.store.claimDue(provider: provider, limit: 10_000, now: t0).entries.map { ($0, provider) }
        }
        #expect(rows.allSatisfy { $0.entry.notification.id == id })
        for row in rows {
            #expect(try fixture.count("notifications") == 1)
            try fixture.store.complete([row.entry.id])
        }
        #expect(try fixture.count("notifications") == 0)
        let deliveries = rows.map { Delivery(registrationId: $0.entry.registration.id, provider: $0.provider) }
        #expect(Set(deliveries).count == deliveries.count)
        return Set(deliveries)
    }

    @Test(arguments: StoreKind.available, [1, 2, 3, 4, 5, 6] as [UInt64])
    func fanOutEqualsThePortableRule(kind: StoreKind, seed: UInt64) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try populate(store, seed: seed)
        let enabledSets: [Set<Platform>] = [Set(Platform.allCases), [.android, .webpush], [.apns, .apnsVoip, .ios], [.apns, .ios]]
        var serial = 0
        for kind in NotifyKind.allCases {
            for enabled in enabledSets {
                for exclusion in 0..<3 {
                    serial += 1
                    let fanOut = FanOut(kind: kind, enabledPlatforms: enabled,
                                        excludedAccount: exclusion == 1 ? "A1" : nil,
                                        excludedDevice: exclusion == 2 ? ("A2", "d0") : nil)
                    let topics = Array(Self.topics.prefix(1 + serial % Self.topics.count))
                    let expected = fanOut.deliveries(to: try store.recipients(of: topics))
                    #expect(Set(expected).count == expected.count)
                    let id = "n\(serial)"
                    let result = try store.enqueue(
                        notification(id, kind: kind), fanningOut: fanOut, to: topics, caller: "S",
                        key: IdempotencyKey(bytes: [UInt8(serial)]), duplicateSince: t0.addingTimeInterval(-60))
                    #expect(result.outcome == .accepted(id))
                    #expect(try drainQueued(fixture, id: id) == Set(expected),
                            "kind \(kind) enabled \(enabled) exclusion \(exclusion)")
                    #expect(result.queued == expected.count)
                }
            }
        }
    }

    /// Both forms of the SQLite statement's topic search (a compound of searches up to
    /// `compoundTopics` topics, a `VALUES` table past it) find what the portable rule finds.
    @Test(arguments: StoreKind.available, [3, SQLiteStore.compoundTopics, SQLiteStore.compoundTopics + 1, 300])
    func manyTopicsFanOutAsTheRuleDoes(kind: StoreKind, count: Int) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        try populate(store, seed: 7)
        // The subscribed topics first and last, topics nobody holds between them.
        let padding = (0..<max(0, count - Self.topics.count)).map { ref(3, "none\($0)") }
        let topics = Array(Self.topics.prefix(2)) + padding + Array(Self.topics.suffix(2))
        let fanOut = FanOut(kind: .message, enabledPlatforms: Set(Platform.allCases))
        let expected = fanOut.deliveries(to: try store.recipients(of: topics))
        #expect(!expected.isEmpty)
        let result = try store.enqueue(notification("n-many"), fanningOut: fanOut, to: topics, caller: "S",
                                       key: IdempotencyKey(bytes: [42]), duplicateSince: t0.addingTimeInterval(-60))
        #expect(result == EnqueueResult(.accepted("n-many"), queued: expected.count))
        #expect(try drainQueued(fixture, id: "n-many") == Set(expected))
    }

    @Test(arguments: StoreKind.available) func callsRingOnlyTheVoipRegistrationOfADevice(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        _ = try store.saveRegistration(registration("voip", account: "B", device: "phone", platform: .apnsVoip, token: "aa"))
        _ = try store.saveRegistration(registration("alert", account: "B", device: "phone", platform: .apns, token: "bb"))
        _ = try store.saveRegistration(registration("fcm", account: "B", device: "phone", platform: .ios))
        _ = try store.saveRegistration(registration("tablet", account: "B", device: "tablet", platform: .apns, token: "cc"))
        _ = try store.replaceSubscriptions(ofAccount: "B", with: [ref(1, "a")], limit: 10)
        let all = Set(Platform.allCases)
        for (kind, expected) in [(NotifyKind.call, ["tablet", "voip"]), (.message, ["alert", "fcm", "tablet"])] {
            let id = "n-\(kind)"
            _ = try store.enqueue(notification(id, kind: kind), fanningOut: FanOut(kind: kind, enabledPlatforms: all),
                                  to: [ref(1, "a")], caller: "S", key: IdempotencyKey(bytes: Array(id.utf8)),
                                  duplicateSince: t0)
            #expect(try drainQueued(fixture, id: id).map(\.registrationId).sorted() == expected)
        }
        // Without VoIP credentials the phone gets the call as an alert on its other tokens.
        _ = try store.enqueue(notification("n-novoip", kind: .call), fanningOut: FanOut(kind: .call, enabledPlatforms: [.apns, .ios]),
                              to: [ref(1, "a")], caller: "S", key: IdempotencyKey(bytes: [9]), duplicateSince: t0)
        #expect(try drainQueued(fixture, id: "n-novoip").map(\.registrationId).sorted() == ["alert", "fcm", "tablet"])
    }

    @Test(arguments: StoreKind.available) func aDuplicateWritesNothing(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind)
        let store = fixture.store
        _ = try store.saveRegistration(registration("r1", account: "B"))
        _ = try store.replaceSubscriptions(ofAccount: "B", with: [ref(1, "a")], limit: 10)
        let fanOut = FanOut(kind: .message, enabledPlatforms: Set(Platform.allCases))
        let first = try store.enqueue(notification("n1"), fanningOut: fanOut, to: [ref(1, "a")], caller: "S",
                                      key: IdempotencyKey(bytes: [1]), duplicateSince: t0.addingTimeInterval(-60))
        let again = try store.enqueue(notification("n2"), fanningOut: fanOut, to: [ref(1, "a")], caller: "S",
                                      key: IdempotencyKey(bytes: [1]), duplicateSince: t0.addingTimeInterval(-60))
        #expect(first == EnqueueResult(.accepted("n1"), queued: 1))
        #expect(again == EnqueueResult(.duplicate("n1")))
        #expect(try fixture.queuedDeliveries() == 1)
        #expect(try drainQueued(fixture, id: "n1") == [Delivery(registrationId: "r1", provider: .fcm)])
    }

    /// The statement text is built once per shape and is the text `fanOutSQL` builds.
    @Test func theCachedStatementIsTheBuiltOne() {
        for topics in [1, 3, 32, 33, 100] {
            for platforms in [[Platform.webpush], Platform.allCases, [.android, .apnsVoip]] {
                for kind in NotifyKind.allCases {
                    let built = SQLiteStore.fanOutSQL(topics: topics, platforms: platforms, kind: kind)
                    #expect(SQLiteStore.cachedFanOutSQL(topics: topics, platforms: platforms, kind: kind) == built)
                    #expect(SQLiteStore.cachedFanOutSQL(topics: topics, platforms: platforms, kind: kind) == built)
                }
            }
        }
    }

    /// The fan-out finds its subscribers by the topic index and their registrations by the
    /// covering account index, whatever else the database holds: a plan that scans the
    /// subscriptions costs every Notify time in proportion to all subscriptions (21 ms beside 200k).
    @Test func theFanOutSearchesByIndexAndScansNothing() throws {
        let fixture = try StoreFixture()
        for (kind, topics) in NotifyKind.allCases.flatMap({ kind in [3, SQLiteStore.compoundTopics + 1].map { (kind, $0) } }) {
            let sql = SQLiteStore.fanOutSQL(topics: topics, platforms: Platform.allCases, kind: kind)
            let values: [SQLiteValue] = [.integer(1), .integer(0), .integer(0), .null, .null, .null]
                + (0..<topics).flatMap { [SQLiteValue.text("space"), .text("topic\($0)")] } + Platform.allCases.map { .text($0.rawValue) }
            let plan = try fixture.store.read { db in try db.query("EXPLAIN QUERY PLAN " + sql, values) { $0.text(3) } }
            #expect(plan.contains("SEARCH s USING COVERING INDEX subscriptions_by_topic (space_key=? AND topic=?)"), "\(plan)")
            #expect(plan.contains { $0.hasPrefix("SEARCH r USING COVERING INDEX registrations_by_account_platform") }, "\(plan)")
            #expect(!plan.contains { $0.hasPrefix("SCAN s") || $0.hasPrefix("SCAN r") }, "\(plan)")
        }
    }
}
