import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushService

/// Store failures are `storageFailed`, never a refusal; refusals carry no status.
@Suite struct ServiceErrorTests {
    @Test func everyOperationAnswersAStoreFailureAsStorageFailed() {
        let service = PushService(store: FailingStore(), configuration: .init())
        let me = account(1)
        let space = TestSpace(seed: 3)
        let message = NotifyMessage(keyId: String(repeating: "c", count: 64), payload: Array(repeating: 7, count: 40),
                                    signature: me.sign(Array(repeating: 7, count: 40)))
        let calls: [(ServiceOperation, () throws -> Void)] = [
            (.setToken, { _ = try service.setToken(SetTokenRequest(deviceId: "d", platform: .android, token: "t"), caller: me.accountID) }),
            (.listTokens, { _ = try service.listTokens(caller: me.accountID) }),
            (.revokeToken, { _ = try service.revokeToken(RevokeTokenRequest(.device("d")), caller: me.accountID) }),
            (.createSpace, { _ = try service.createSpace(space.registration(for: me.accountID), caller: me.accountID) }),
            (.removeSpace, { _ = try service.removeSpace(space.registration(for: me.accountID), caller: me.accountID) }),
            (.subscribeAll, { _ = try service.subscribeAll(SubscribeRequest(topics: [space.topic("a")]), caller: me.accountID) }),
            (.subscribe, { _ = try service.subscribe(SubscribeRequest(topics: [space.topic("a")]), caller: me.accountID) }),
            (.unsubscribe, { _ = try service.unsubscribe(UnsubscribeRequest(topics: [space.topic("a").ref]), caller: me.accountID) }),
            (.subscriptions, { _ = try service.subscriptions(caller: me.accountID) }),
            (.notify, { _ = try service.notify(NotifyRequest(topics: [space.topic("a")], message: message), caller: me.accountID) }),
            (.notifySilent, { _ = try service.notifySilent(NotifySilentRequest(topics: [space.topic(me.accountID.string)]),
                                                           caller: me.accountID) }),
            (.notificationStatus, { _ = try service.notificationStatus(id: String(repeating: "a", count: 32), caller: me.accountID) }),
        ]
        #expect(Set(calls.map(\.0)) == Set(ServiceOperation.allCases))
        for (operation, call) in calls {
            do {
                try call()
                Issue.record("\(operation) succeeded on a failing store")
            } catch {
                guard case .storageFailed(let underlying)? = error as? ServiceError else {
                    Issue.record("\(operation): \(error)")
                    continue
                }
                #expect(underlying is LeakyStoreError, "\(operation)")
            }
        }
    }

    /// Every store call's outcome reaches `storageHealth`: a failure starts a fault, the next
    /// success (a refusal the store answered included) ends it, and `probeStorage` reads once.
    @Test func storeOutcomesFeedTheStorageHealth() {
        let store = SwitchableStore()
        let service = PushService(store: store, configuration: .init(limits: Limits(maxSubscriptions: 1)))
        let me = account(1)
        let space = TestSpace(seed: 3)
        #expect(service.probeStorage() && service.storageHealth.isAvailable)
        store.failing.mutate { $0 = true }
        #expect(throws: ServiceError.self) { _ = try service.listTokens(caller: me.accountID) }
        #expect(!service.storageHealth.isAvailable && !service.probeStorage())
        store.failing.mutate { $0 = false }
        #expect(throws: ServiceError.self) {
            _ = try service.subscribeAll(SubscribeRequest(topics: [space.topic("a"), space.topic("b")]), caller: me.accountID)
        }
        #expect(service.storageHealth.isAvailable)
        #expect(service.storageHealth.failures == 2)
    }

    @Test func protocolShapeRulesBecomeRefusalsWithTheirCodeAndField() {
        let refusal = ServiceError.Refusal(APIError.invalid("ttl", "ttl must be 1–2419200 seconds"))
        #expect(refusal == ServiceError.Refusal(code: .invalidField, message: "ttl must be 1–2419200 seconds", field: "ttl"))
    }
}
