import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushService
@testable import PushStore

@Suite struct NotifyServiceTests {
    let space = TestSpace(seed: 7)

    /// Subscribers of any listed topic minus the caller; each registration once however many topics match.
    @Test func fanOut() throws {
        let fixture = try ServiceFixture(.init(allowPrivateEndpoints: false))
        let sender = account(1), alice = account(2), bob = account(3), carol = account(4)
        try fixture.register(sender, device: "s")
        let alicePhone = try fixture.register(alice, device: "phone")
        let aliceBrowser = try fixture.service.setToken(TokenServiceTests.webpush("https://push.example.net/a"), caller: alice.accountID).registrationId
        let bobPhone = try fixture.register(bob, device: "phone", platform: .apns)
        try fixture.register(carol, device: "phone")
        for who in [sender, alice] {
            _ = try fixture.service.subscribeAll(.init(topics: [space.topic("chats"), space.topic(who.accountID.string)]), caller: who.accountID)
        }
        _ = try fixture.service.subscribeAll(.init(topics: [space.topic("chats/x")]), caller: bob.accountID)
        _ = try fixture.service.subscribeAll(.init(topics: [space.topic("other")]), caller: carol.accountID)

        let message = fixture.message(from: sender)
        let request = NotifyRequest(topics: [space.topic("chats"), space.topic("chats/x"), space.topic(alice.accountID.string)],
                                    message: message, groupId: "chat-1")
        let response = try fixture.service.notify(request, caller: sender.accountID)
        #expect(!response.duplicate)
        #expect(response.id.count == 32 && response.id.allSatisfy(\.isHexDigit))

        let entries = try fixture.drain()
        #expect(entries.map(\.registration.id).sorted() == [alicePhone, aliceBrowser, bobPhone].sorted())
        let stored = try #require(entries.first?.notification)
        #expect(stored == NotificationRecord(id: response.id, kind: .message, keyId: message.keyId, payload: message.payload,
                                             signature: message.signature, groupId: "chat-1", createdAt: t0,
                                             expiresAt: t0.addingTimeInterval(86_400)))
        #expect(Set(entries.map(\.registration.address.platform.provider)) == [.fcm, .webpush, .apns])
        #expect(fixture.service.statistics().deliveriesQueued == 3)
    }

    @Test func duplicatesAnswerTheFirstIdAndWriteNothing() throws {
        let fixture = try ServiceFixture()
        let sender = account(1), alice = account(2)
        try fixture.register(alice, device: "phone")
        _ = try fixture.service.subscribe(.init(topics: [space.topic("chats")]), caller: alice.accountID)
        let request = NotifyRequest(topics: [space.topic("chats")], message: fixture.message(from: sender))
        let first = try fixture.service.notify(request, caller: sender.accountID)
        fixture.now.mutate { $0 += 3600 }
        let again = try fixture.service.notify(request, caller: sender.accountID)
        #expect(again == NotifyResponse(id: first.id, duplicate: true))
        #expect(try fixture.store.outboxStatistics()[.fcm]?.depth == 1)
        // The same bytes from another caller are not its duplicate (and fail its signature anyway).
        #expect(serviceRefusal { _ = try fixture.service.notify(request, caller: alice.accountID) }?.code == .messageSignatureInvalid)
        // After 24 h the key is free again.
        fixture.now.mutate { $0 = t0.addingTimeInterval(86_400 + 1) }
        let later = try fixture.service.notify(request, caller: sender.accountID)
        #expect(!later.duplicate && later.id != first.id)
        #expect(fixture.service.statistics().notificationsDuplicate == 1)
        #expect(fixture.service.statistics().notificationsAccepted == 2)
    }

    @Test(arguments: [(NotifyKind?.none, Int?.none, 86_400), (.message, nil, 86_400), (.silent, nil, 3_600),
                      (.call, nil, 45), (.message, 60, 60), (.call, 30, 30)])
    func kindDefaults(kind: NotifyKind?, ttl: Int?, expected: Int) throws {
        let fixture = try ServiceFixture()
        try fixture.register(account(2), device: "phone")
        _ = try fixture.service.subscribe(.init(topics: [space.topic("chats")]), caller: account(2).accountID)
        _ = try fixture.service.notify(NotifyRequest(topics: [space.topic("chats")], message: fixture.message(from: account(1)),
                                                     kind: kind, ttl: ttl), caller: account(1).accountID)
        let entry = try #require(try fixture.drain().first)
        #expect(entry.expiresAt == t0.addingTimeInterval(TimeInterval(expected)))
        #expect(entry.notification.kind == kind ?? .message)
    }

    @Test func callRoutingPerDevice() throws {
        let fixture = try ServiceFixture()
        let caller = account(1), callee = account(2)
        let voipPhone = (apns: try fixture.register(callee, device: "iphone", platform: .apns),
                         ios: try fixture.register(callee, device: "iphone", platform: .ios),
                         voip: try fixture.register(callee, device: "iphone", platform: .apnsVoip))
        let plainIPhone = try fixture.register(callee, device: "ipad", platform: .apns)
        let android = try fixture.register(callee, device: "pixel", platform: .android)
        let browser = try fixture.service.setToken(TokenServiceTests.webpush("https://push.example.net/c"), caller: callee.accountID).registrationId
        _ = try fixture.service.subscribe(.init(topics: [space.topic(callee.accountID.string)]), caller: callee.accountID)

        func deliveries(_ kind: NotifyKind, seed: UInt8) throws -> Set<String> {
            _ = try fixture.service.notify(NotifyRequest(topics: [space.topic(callee.accountID.string)],
                                                         message: fixture.message(from: caller, seed: seed), kind: kind),
                                           caller: caller.accountID)
            let entries = try fixture.drain()
            try fixture.store.complete(entries.map(\.id))
            return Set(entries.map(\.registration.id))
        }
        #expect(try deliveries(.call, seed: 1) == [voipPhone.voip, plainIPhone, android, browser])
        #expect(try deliveries(.message, seed: 2) == [voipPhone.apns, voipPhone.ios, plainIPhone, android, browser])
        #expect(try deliveries(.silent, seed: 3) == [voipPhone.apns, voipPhone.ios, plainIPhone, android, browser])
    }

    @Test func refusals() throws {
        let fixture = try ServiceFixture(.init(limits: Limits(maxPayloadBytes: 200, maxTopicsPerRequest: 2)))
        let sender = account(1)
        let good = fixture.message(from: sender)
        var forged = good
        forged.signature = account(2).sign(good.payload)
        var badTopic = space.topic("b")
        badTopic.signature = space.topic("c").signature

        func refusal(_ request: NotifyRequest) -> ServiceError.Refusal? {
            serviceRefusal { _ = try fixture.service.notify(request, caller: sender.accountID) }
        }
        #expect(refusal(.init(topics: [space.topic("a")], message: forged))
                == ServiceError.Refusal(code: .messageSignatureInvalid, message: "message.signature is not the caller's signature of the payload",
                            field: "message.signature"))
        let big = refusal(.init(topics: [space.topic("a")], message: fixture.message(from: sender, size: 201)))
        #expect(big?.code == .payloadTooLarge && big?.field == "message.payload")
        #expect(refusal(.init(topics: [space.topic("a")], message: fixture.message(from: sender, size: 200))) == nil)
        let topic = refusal(.init(topics: [space.topic("a"), badTopic], message: fixture.message(from: sender, seed: 9)))
        #expect(topic?.code == .topicSignatureInvalid && topic?.field == "topics[1].signature")
        #expect(refusal(.init(topics: [space.topic("a"), space.topic("b"), space.topic("c")], message: good))?.field == "topics")
        #expect(refusal(.init(topics: [], message: good))?.field == "topics")
        #expect(refusal(.init(topics: [space.topic("a")], message: good, groupId: "tab\t"))?.field == "groupId")
        #expect(refusal(.init(topics: [space.topic("a")], message: good, ttl: 2_419_201))?.field == "ttl")
    }

    @Test func topicSignaturesAreCached() throws {
        let fixture = try ServiceFixture()
        let topics = [space.topic("chats"), space.topic("chats/1")]
        _ = try fixture.service.notify(.init(topics: topics, message: fixture.message(from: account(1), seed: 1)), caller: account(1).accountID)
        #expect(fixture.service.statistics().topicSignatureCacheMisses == 2)
        _ = try fixture.service.notify(.init(topics: topics, message: fixture.message(from: account(1), seed: 2)), caller: account(1).accountID)
        #expect(fixture.service.statistics().topicSignatureCacheHits == 2)
        #expect(fixture.service.statistics().topicSignatureCacheMisses == 2)
        // A bad signature is never cached as good.
        var bad = space.topic("chats")
        bad.signature = space.topic("x").signature
        #expect(serviceRefusal { _ = try fixture.service.notify(.init(topics: [bad], message: fixture.message(from: account(1), seed: 3)),
                                                          caller: account(1).accountID) }?.code == .topicSignatureInvalid)
    }

    @Test func requiredSpaceRegistrationDropsTopicsAtNotify() throws {
        let fixture = try ServiceFixture(.init(requireSpaceRegistration: true))
        let sender = account(1), alice = account(2)
        let other = TestSpace(seed: 8)
        try fixture.register(alice, device: "phone")
        for s in [space, other] { _ = try fixture.service.createSpace(s.registration(for: alice.accountID), caller: alice.accountID) }
        _ = try fixture.service.subscribe(.init(topics: [space.topic("chats"), other.topic("chats")]), caller: alice.accountID)
        _ = try fixture.service.createSpace(other.registration(for: sender.accountID), caller: sender.accountID)
        // The sender registered `other` only: the topic of `space` is dropped; `other` still reaches alice.
        _ = try fixture.service.notify(.init(topics: [space.topic("chats")], message: fixture.message(from: sender, seed: 1)),
                                       caller: sender.accountID)
        #expect(try fixture.drain().isEmpty)
        _ = try fixture.service.notify(.init(topics: [space.topic("chats"), other.topic("chats")],
                                             message: fixture.message(from: sender, seed: 2)), caller: sender.accountID)
        #expect(try fixture.drain().count == 1)
    }

    @Test func disabledPlatformsGetNoDeliveries() throws {
        let all = try ServiceFixture()
        let alice = account(2)
        try all.register(alice, device: "phone", platform: .apns)
        try all.register(alice, device: "tablet", platform: .android)
        _ = try all.service.subscribe(.init(topics: [space.topic("chats")]), caller: alice.accountID)
        // The same store served by a node where APNs is off.
        let fcmOnly = PushService(store: all.store, configuration: .init(enabledPlatforms: [.android, .ios]),
                                  resolver: FakeResolver(), clock: { t0 })
        _ = try fcmOnly.notify(.init(topics: [space.topic("chats")], message: all.message(from: account(1))), caller: account(1).accountID)
        #expect(try all.drain().map(\.registration.address.platform) == [.android])
    }

    @Test func silentKeepsOwnTopicsAndSkipsTheSendingDevice() throws {
        let fixture = try ServiceFixture()
        let me = account(1), friend = account(2)
        let laptop = try fixture.register(me, device: "laptop")
        try fixture.register(me, device: "phone")
        let voip = try fixture.register(me, device: "iphone", platform: .apnsVoip)
        let iphone = try fixture.register(me, device: "iphone", platform: .apns)
        try fixture.register(friend, device: "phone")
        _ = try fixture.service.subscribe(.init(topics: [space.topic(me.accountID.string), space.topic("chats")]), caller: me.accountID)
        _ = try fixture.service.subscribe(.init(topics: [space.topic("chats")]), caller: friend.accountID)
        _ = voip

        var forged = space.topic("chats")
        forged.signature = [UInt8](repeating: 0, count: 64)  // dropped before any check: not the caller's topic
        let request = NotifySilentRequest(topics: [forged, space.topic(me.accountID.string)], groupId: "chat-1", deviceId: "phone")
        let response = try fixture.service.notifySilent(request, caller: me.accountID)
        let entries = try fixture.drain()
        #expect(Set(entries.map(\.registration.id)) == [laptop, iphone])
        #expect(entries.allSatisfy { $0.notification.kind == .silent && $0.notification.payload == nil && $0.notification.id == response.id })
        #expect(entries.first?.expiresAt == t0.addingTimeInterval(3_600))
        // Without a message the canonical topics + groupId are the idempotency key, whatever their order.
        let reordered = NotifySilentRequest(topics: [space.topic(me.accountID.string), forged], groupId: "chat-1")
        #expect(try fixture.service.notifySilent(reordered, caller: me.accountID) == NotifyResponse(id: response.id, duplicate: true))
        let otherGroup = NotifySilentRequest(topics: [space.topic(me.accountID.string)], groupId: "chat-2")
        #expect(try !fixture.service.notifySilent(otherGroup, caller: me.accountID).duplicate)
    }

    /// The skipped device's id follows the registration rule: 1–128 characters, no controls.
    @Test func silentDeviceIdFollowsTheTokenRule() throws {
        let fixture = try ServiceFixture()
        let me = account(1)
        for bad in ["", String(repeating: "d", count: 129), "pho\u{7}ne"] {
            let error = serviceRefusal {
                _ = try fixture.service.notifySilent(.init(topics: [space.topic(me.accountID.string)], deviceId: bad), caller: me.accountID)
            }
            #expect(error?.code == .invalidField && error?.field == "deviceId", "\(bad.debugDescription)")
        }
    }

    @Test func silentChecksWhatItKeeps() throws {
        let fixture = try ServiceFixture()
        let me = account(1)
        var badOwn = space.topic(me.accountID.string)
        badOwn.signature = space.topic("x").signature
        let error = serviceRefusal { _ = try fixture.service.notifySilent(.init(topics: [space.topic("a"), badOwn]), caller: me.accountID) }
        #expect(error?.code == .topicSignatureInvalid && error?.field == "topics[1].signature")
        var forged = fixture.message(from: me)
        forged.signature = account(3).sign(forged.payload)
        #expect(serviceRefusal { _ = try fixture.service.notifySilent(.init(topics: [], message: forged), caller: me.accountID) }?
                .code == .messageSignatureInvalid)
        // No own topics at all: accepted, nothing to deliver.
        let empty = try fixture.service.notifySilent(.init(topics: [space.topic("chats")], message: fixture.message(from: me)), caller: me.accountID)
        #expect(!empty.duplicate)
        #expect(try fixture.drain().isEmpty)
    }
}
