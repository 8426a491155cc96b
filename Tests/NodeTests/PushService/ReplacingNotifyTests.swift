import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushService
@testable import PushStore

/// Content-free wakes, kind `clear` and `replaces` through the service (PROTOCOL §4.1, §4.3).
@Suite struct ReplacingNotifyTests {
    let space = TestSpace(seed: 9)

    @Test func aWakeWithoutAMessageIsQueuedEachTimeWithItsCount() throws {
        let fixture = try ServiceFixture()
        let sender = account(1), alice = account(2)
        try fixture.register(alice, device: "phone")
        try fixture.register(alice, device: "tablet")
        _ = try fixture.service.subscribe(.init(topics: [space.topic("chats")]), caller: alice.accountID)
        let wake = NotifyRequest(topics: [space.topic("chats")], message: nil, groupId: "chat-1")
        let first = try fixture.service.notify(wake, caller: sender.accountID)
        let second = try fixture.service.notify(wake, caller: sender.accountID)
        // No nonce tells a retried wake from the next one: both are queued.
        #expect(!first.duplicate && !second.duplicate && first.id != second.id)
        #expect(first.queued == 2 && second.queued == 2)
        let entries = try fixture.drain()
        #expect(entries.count == 4)
        #expect(entries.allSatisfy { $0.notification.payload == nil && $0.notification.keyId == nil })
        #expect(try fixture.store.read { $0.idempotency.count } == 0)
    }

    @Test func nobodySubscribedQueuesZeroAndADuplicateCountsZero() throws {
        let fixture = try ServiceFixture()
        let sender = account(1)
        let request = NotifyRequest(topics: [space.topic("chats")], message: fixture.message(from: sender))
        #expect(try fixture.service.notify(request, caller: sender.accountID).queued == 0)
        #expect(try fixture.service.notify(request, caller: sender.accountID).duplicate)
    }

    @Test func aClearWithdrawsTheCallersRingAndIsQueuedToTheAlertTokens() throws {
        let fixture = try ServiceFixture()
        let caller = account(1), alice = account(2), mallory = account(3)
        let voip = try fixture.register(alice, device: "phone", platform: .apnsVoip)
        let alert = try fixture.register(alice, device: "phone", platform: .apns)
        _ = try fixture.service.subscribe(.init(topics: [space.topic("calls")]), caller: alice.accountID)
        let ring = NotifyRequest(topics: [space.topic("calls")], message: fixture.message(from: caller), groupId: "call-7", kind: .call)
        #expect(try fixture.service.notify(ring, caller: caller.accountID).queued == 1)
        // Someone else's clear of the same group id withdraws nothing of the caller's.
        let foreign = NotifyRequest(topics: [space.topic("calls")], message: nil, groupId: "call-7", kind: .clear)
        _ = try fixture.service.notify(foreign, caller: mallory.accountID)
        #expect(fixture.service.statistics().deliveriesSuperseded == 0)
        let clear = NotifyRequest(topics: [space.topic("calls")], message: nil, groupId: "call-7", kind: .clear)
        #expect(try fixture.service.notify(clear, caller: caller.accountID).queued == 1)
        #expect(fixture.service.statistics().deliveriesSuperseded == 1)
        let entries = try fixture.drain()
        #expect(entries.filter { $0.notification.kind == .call }.isEmpty)
        let clears = entries.filter { $0.notification.kind == .clear }
        #expect(clears.map(\.registration.id).sorted() == [alert, alert])
        #expect(!entries.contains { $0.registration.id == voip })
        #expect(clears.allSatisfy { $0.expiresAt == t0.addingTimeInterval(60) })
    }

    @Test func replacesWithoutAGroupIsRefusedBeforeAnythingIsWritten() throws {
        let fixture = try ServiceFixture()
        let sender = account(1)
        let clear = NotifyRequest(topics: [space.topic("calls")], message: nil, kind: .clear)
        let refusal = serviceRefusal { _ = try fixture.service.notify(clear, caller: sender.accountID) }
        #expect(refusal?.code == .missingField && refusal?.field == "groupId")
        let silent = NotifySilentRequest(topics: [], replaces: true)
        #expect(serviceRefusal { _ = try fixture.service.notifySilent(silent, caller: sender.accountID) }?.field == "groupId")
    }

    /// A read on one device replaces the older read push of the same chat on the caller's other devices.
    @Test func aSilentReadReplacesTheOlderReadOnTheOtherDevices() throws {
        let fixture = try ServiceFixture()
        let me = account(1)
        try fixture.register(me, device: "phone")
        try fixture.register(me, device: "laptop")
        _ = try fixture.service.subscribe(.init(topics: [space.topic(me.accountID.string)]), caller: me.accountID)
        let own = [space.topic(me.accountID.string)]
        _ = try fixture.service.notifySilent(.init(topics: own, groupId: "chat-1", deviceId: "laptop"), caller: me.accountID)
        let read = try fixture.service.notifySilent(.init(topics: own, message: fixture.message(from: me), groupId: "chat-1",
                                                          deviceId: "laptop", replaces: true), caller: me.accountID)
        #expect(read.queued == 1)
        #expect(fixture.service.statistics().deliveriesSuperseded == 1)
        #expect(try fixture.drain().map(\.notification.id) == [read.id])
    }
}
