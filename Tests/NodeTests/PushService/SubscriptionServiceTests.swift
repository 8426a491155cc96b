import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushService

@Suite struct SpaceServiceTests {
    @Test func spaceRegistrationNeedsTheSpaceKeysSignature() throws {
        let fixture = try ServiceFixture()
        let me = account(1)
        let space = TestSpace(seed: 9)
        #expect(try fixture.service.createSpace(space.registration(for: me.accountID), caller: me.accountID) == EmptyResponse())
        #expect(try fixture.store.spaces(ofAccount: me.accountID.string) == [space.key.string])

        // Signed for another account: refused.
        let forOther = space.registration(for: account(2).accountID)
        let error = serviceRefusal { _ = try fixture.service.createSpace(forOther, caller: me.accountID) }
        #expect(error == ServiceError.Refusal(code: .spaceSignatureInvalid, message: error?.message ?? "", field: "signature"))
        var short = space.registration(for: me.accountID)
        short.signature = Array(short.signature.prefix(10))
        #expect(serviceRefusal { _ = try fixture.service.removeSpace(short, caller: me.accountID) }?.code == .invalidField)
        #expect(serviceRefusal { _ = try fixture.service.removeSpace(forOther, caller: me.accountID) }?.code == .spaceSignatureInvalid)

        _ = try fixture.service.subscribe(SubscribeRequest(topics: [space.topic("chats")]), caller: me.accountID)
        _ = try fixture.service.removeSpace(space.registration(for: me.accountID), caller: me.accountID)
        #expect(try fixture.store.spaces(ofAccount: me.accountID.string).isEmpty)
        #expect(try fixture.service.subscriptions(caller: me.accountID).topics.isEmpty)
    }
}

@Suite struct SubscriptionServiceTests {
    @Test func replaceAddRemoveAndList() throws {
        let fixture = try ServiceFixture()
        let me = account(1).accountID
        let a = TestSpace(seed: 1), b = TestSpace(seed: 2)
        #expect(try fixture.service.subscribeAll(.init(topics: [a.topic("chats"), a.topic(me.string), a.topic("chats")]), caller: me).count == 2)
        #expect(try fixture.service.subscribe(.init(topics: [b.topic("chats"), a.topic("chats")]), caller: me).count == 3)
        #expect(try fixture.service.subscribeAll(.init(topics: [b.topic("x")]), caller: me).count == 1)
        #expect(try fixture.service.subscribe(.init(topics: [a.topic("y"), a.topic("z")]), caller: me).count == 3)
        #expect(try fixture.service.unsubscribe(.init(topics: [TopicRef(spaceKey: a.key, topic: "y"), TopicRef(spaceKey: a.key, topic: "none")]),
                                               caller: me).count == 2)
        let listed = try fixture.service.subscriptions(caller: me).topics
        #expect(Set(listed) == [TopicRef(spaceKey: b.key, topic: "x"), TopicRef(spaceKey: a.key, topic: "z")])
        #expect(listed == listed.sorted())
        #expect(try fixture.service.subscribeAll(.init(topics: []), caller: me).count == 0)
    }

    struct Case: Sendable, CustomTestStringConvertible {
        var name: String
        var code: APIError.Code
        var field: String
        var testDescription: String { name }
    }

    @Test func refusals() throws {
        let limits = Limits(maxTopicsPerRequest: 3, maxSubscriptions: 4)
        let fixture = try ServiceFixture(.init(limits: limits))
        let me = account(1).accountID
        let a = TestSpace(seed: 1), other = TestSpace(seed: 2)
        var forged = a.topic("forged")
        forged.signature = other.topic("forged").signature
        var empty = a.topic("ok")
        empty.topic = ""
        var short = a.topic("short")
        short.signature.removeLast()

        func refusal(_ topics: [Topic], add: Bool = true) -> ServiceError.Refusal? {
            serviceRefusal {
                _ = add ? try fixture.service.subscribe(.init(topics: topics), caller: me)
                        : try fixture.service.subscribeAll(.init(topics: topics), caller: me)
            }
        }
        #expect(refusal([a.topic("1"), forged]) == ServiceError.Refusal(code: .topicSignatureInvalid,
                                                            message: "the signature of topics[1] does not verify", field: "topics[1].signature"))
        #expect(refusal([empty])?.field == "topics[0].topic")
        #expect(refusal([a.topic("1"), short])?.field == "topics[1].signature")
        #expect(refusal([a.topic("1"), short])?.code == .invalidField)
        let tooMany = refusal((1...4).map { a.topic("t\($0)") })
        #expect(tooMany?.code == .invalidField && tooMany?.field == "topics")
        #expect(serviceRefusal { _ = try fixture.service.unsubscribe(.init(topics: (1...4).map { TopicRef(spaceKey: a.key, topic: "\($0)") }), caller: me) }?
                .field == "topics")
        // maxSubscriptions: request.invalid_field at `topics`, nothing added.
        #expect(try fixture.service.subscribe(.init(topics: [a.topic("1"), a.topic("2"), a.topic("3")]), caller: me).count == 3)
        let overLimit = refusal([a.topic("4"), a.topic("5")])
        #expect(overLimit?.code == .invalidField && overLimit?.field == "topics")
        #expect(try fixture.service.subscriptions(caller: me).topics.count == 3)
        #expect(try fixture.service.subscribe(.init(topics: [a.topic("4")]), caller: me).count == 4)
        #expect(serviceRefusal { _ = try fixture.service.unsubscribe(.init(topics: [TopicRef(spaceKey: a.key, topic: "")]), caller: me) }?
                .field == "topics[0].topic")
    }

    @Test func requiredSpaceRegistrationRefusesUnregisteredSpaces() throws {
        let fixture = try ServiceFixture(.init(requireSpaceRegistration: true))
        let me = account(1)
        let a = TestSpace(seed: 1), b = TestSpace(seed: 2)
        _ = try fixture.service.createSpace(a.registration(for: me.accountID), caller: me.accountID)
        let error = serviceRefusal { _ = try fixture.service.subscribeAll(.init(topics: [a.topic("chats"), b.topic("chats")]), caller: me.accountID) }
        #expect(error?.code == .invalidField && error?.field == "topics[1].spaceKey")
        #expect(try fixture.service.subscribeAll(.init(topics: [a.topic("chats")]), caller: me.accountID).count == 1)
    }
}
