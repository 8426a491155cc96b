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

/// The SQLite `INSERT … SELECT` fan-out against the portable rule (`FanOut.deliveries(to:)` over
/// `recipients(of:)`) on seeded random populations: the same deliveries, every kind and exclusion.
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
    private func populate(_ store: SQLiteStore, seed: UInt64) throws {
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

    private func queued(_ store: SQLiteStore, id: String) throws -> (rows: Set<Delivery>, pending: Int?) {
        try store.read { db in
            let rows = try db.query("""
                SELECT o.registration, o.provider FROM outbox o JOIN notifications n ON n.seq = o.notification WHERE n.id = ?
                """, [.text(id)]) { Delivery(registrationId: $0.text(0), provider: Provider(rawValue: $0.text(1))!) }
            let pending = try db.queryFirst("SELECT pending FROM notifications WHERE id = ?", [.text(id)]) { $0.int(0) }
            return (Set(rows), pending)
        }
    }

    @Test(arguments: [1, 2, 3, 4, 5, 6] as [UInt64])
    func sqlFanOutEqualsThePortableRule(seed: UInt64) throws {
        let fixture = try StoreFixture()
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
                    let (outcome, count) = try store.enqueue(
                        notification(id, kind: kind), fanningOut: fanOut, to: topics, caller: "S",
                        key: IdempotencyKey(bytes: [UInt8(serial)]), duplicateSince: t0.addingTimeInterval(-60))
                    #expect(outcome == .accepted(id))
                    let (rows, pending) = try queued(store, id: id)
                    #expect(rows == Set(expected), "kind \(kind) enabled \(enabled) exclusion \(exclusion)")
                    #expect(count == expected.count)
                    #expect(pending == (expected.isEmpty ? nil : expected.count))
                }
            }
        }
    }

    @Test func callsRingOnlyTheVoipRegistrationOfADevice() throws {
        let fixture = try StoreFixture()
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
            #expect(try queued(store, id: id).rows.map(\.registrationId).sorted() == expected)
        }
        // Without VoIP credentials the phone gets the call as an alert on its other tokens.
        _ = try store.enqueue(notification("n-novoip", kind: .call), fanningOut: FanOut(kind: .call, enabledPlatforms: [.apns, .ios]),
                              to: [ref(1, "a")], caller: "S", key: IdempotencyKey(bytes: [9]), duplicateSince: t0)
        #expect(try queued(store, id: "n-novoip").rows.map(\.registrationId).sorted() == ["alert", "fcm", "tablet"])
    }

    @Test func aDuplicateWritesNothing() throws {
        let fixture = try StoreFixture()
        let store = fixture.store
        _ = try store.saveRegistration(registration("r1", account: "B"))
        _ = try store.replaceSubscriptions(ofAccount: "B", with: [ref(1, "a")], limit: 10)
        let fanOut = FanOut(kind: .message, enabledPlatforms: Set(Platform.allCases))
        let first = try store.enqueue(notification("n1"), fanningOut: fanOut, to: [ref(1, "a")], caller: "S",
                                      key: IdempotencyKey(bytes: [1]), duplicateSince: t0.addingTimeInterval(-60))
        let again = try store.enqueue(notification("n2"), fanningOut: fanOut, to: [ref(1, "a")], caller: "S",
                                      key: IdempotencyKey(bytes: [1]), duplicateSince: t0.addingTimeInterval(-60))
        #expect(first.0 == .accepted("n1") && first.deliveries == 1)
        #expect(again.0 == .duplicate("n1") && again.deliveries == 0)
        #expect(try queued(store, id: "n2").rows.isEmpty)
    }
}
