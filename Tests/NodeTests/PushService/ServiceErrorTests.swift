import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushService
import PushStore

/// Store failures are `storageFailed`, never a refusal; refusals carry no status.
@Suite struct ServiceErrorTests {
    /// One call of every operation, by `me`.
    static func calls(_ service: PushService, me: AccountKey) -> [(ServiceOperation, () throws -> Void)] {
        let space = TestSpace(seed: 3)
        let message = NotifyMessage(keyId: String(repeating: "c", count: 64), payload: Array(repeating: 7, count: 40),
                                    signature: me.sign(Array(repeating: 7, count: 40)))
        return [
            (.setToken, { _ = try service.setToken(SetTokenRequest(deviceId: "d", platform: .android, token: "t"), caller: me.accountID) }),
            (.listTokens, { _ = try service.listTokens(caller: me.accountID) }),
            (.revokeToken, { _ = try service.revokeToken(RevokeTokenRequest(.device("d")), caller: me.accountID) }),
            (.testToken, { _ = try service.testToken(TestTokenRequest(registrationId: String(repeating: "a", count: 32)), caller: me.accountID) }),
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
    }

    @Test func everyOperationAnswersAStoreFailureAsStorageFailed() {
        let service = PushService(store: FailingStore(), configuration: .init())
        let calls = Self.calls(service, me: account(1))
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

    /// Each operation's store calls feed the fault of their kind: on a full disk (writes fail, reads
    /// work) with a write fault running, an operation that writes fails and adds no read fault, and
    /// one that only reads works and does not end the write fault.
    @Test func eachOperationFeedsTheFaultOfItsKind() {
        let writing: Set<ServiceOperation> = [.setToken, .revokeToken, .createSpace, .removeSpace, .subscribeAll, .subscribe,
                                              .unsubscribe, .notify, .notifySilent]
        let store = SwitchableStore()
        let service = PushService(store: store, configuration: .init())
        for (operation, call) in Self.calls(service, me: account(1)) {
            store.writesFail.mutate { $0 = true }
            service.storageHealth.recordFailure(.write, LeakyStoreError())
            var failedInStorage = false
            do { try call() } catch {
                if case .storageFailed? = error as? ServiceError { failedInStorage = true }
            }
            #expect(failedInStorage == writing.contains(operation), "\(operation)")
            #expect(service.storageHealth.failing == [.write], "\(operation)")
            store.writesFail.mutate { $0 = false }
            #expect(service.probeStorage(), "\(operation)")
        }
    }

    /// Every store call's outcome reaches `storageHealth`: a failure starts a fault of its kind, the
    /// next success of that kind ends it (a refusal the store answered is a read's), and
    /// `probeStorage` tries what failed.
    @Test func storeOutcomesFeedTheStorageHealth() {
        let store = SwitchableStore()
        let service = PushService(store: store, configuration: .init(limits: Limits(maxSubscriptions: 1)))
        let me = account(1)
        let space = TestSpace(seed: 3)
        let tooMany = SubscribeRequest(topics: [space.topic("a"), space.topic("b")])
        #expect(service.probeStorage() && service.storageHealth.isAvailable)
        store.failing.mutate { $0 = true }
        #expect(throws: ServiceError.self) { _ = try service.listTokens(caller: me.accountID) }
        #expect(!service.storageHealth.isAvailable && !service.probeStorage())
        store.failing.mutate { $0 = false }
        #expect(throws: ServiceError.self) { _ = try service.subscribeAll(tooMany, caller: me.accountID) }
        #expect(service.storageHealth.isAvailable)

        store.writesFail.mutate { $0 = true }
        #expect(throws: ServiceError.self) { _ = try service.subscribeAll(tooMany, caller: me.accountID) }
        store.writesFail.mutate { $0 = false }
        // Over the limit: the database answered, but nothing was committed.
        #expect(throws: ServiceError.self) { _ = try service.subscribeAll(tooMany, caller: me.accountID) }
        #expect(service.storageHealth.failing == [.write])
        _ = try? service.subscribeAll(SubscribeRequest(topics: [space.topic("a")]), caller: me.accountID)
        #expect(service.storageHealth.isAvailable)
        #expect(service.storageHealth.failures == 3)
        #expect(store.probes.current == 0)
    }

    @Test func protocolShapeRulesBecomeRefusalsWithTheirCodeAndField() {
        let refusal = ServiceError.Refusal(APIError.invalid("ttl", "ttl must be 1–2419200 seconds"))
        #expect(refusal == ServiceError.Refusal(code: .invalidField, message: "ttl must be 1–2419200 seconds", field: "ttl"))
    }
}
