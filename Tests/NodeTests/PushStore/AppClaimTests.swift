import Foundation
import PushProtocol
import Testing
@testable import PushStore

/// A claim narrowed by app (`AppFilter`, PROTOCOL §10): each app's lane takes only its own
/// registrations' deliveries, and `default`'s lane takes the rest — registrations of apps no
/// longer configured and rows whose registration is gone — on every store alike.
@Suite struct AppClaimTests {
    @Test(arguments: StoreKind.available) func eachLaneClaimsItsAppsDeliveries(kind: StoreKind) throws {
        let fixture = try ContractFixture(kind, claimLease: 30)
        let store = fixture.store
        for (id, app) in [("d1", "default"), ("c1", "chat"), ("c2", "chat"), ("g1", "gone-app"), ("o1", "default")] {
            _ = try store.saveRegistration(registration(id, account: "A", device: id, appId: app))
        }
        let deliveries = ["d1", "c1", "c2", "g1", "o1"].map { Delivery(registrationId: $0, provider: .fcm) }
        _ = try store.enqueue(notification("n1"), deliveries: deliveries, caller: "S", key: IdempotencyKey(bytes: [9]), duplicateSince: t0)
        _ = try store.deleteRegistrations(ofAccount: "A", deviceId: "o1")

        let chat = try store.claimDue(provider: .fcm, apps: .only("chat"), limit: 10, now: t0)
        #expect(chat.entries.map(\.registration.id).sorted() == ["c1", "c2"] && chat.orphaned == 0)
        let rest = try store.claimDue(provider: .fcm, apps: .except(["chat"]), limit: 10, now: t0)
        #expect(rest.entries.map(\.registration.id).sorted() == ["d1", "g1"])
        #expect(rest.orphaned == 1, "a row whose registration is gone goes to default's lane")
        #expect(try store.claimDue(provider: .fcm, apps: .all, limit: 10, now: t0).entries.isEmpty)
    }
}
