import PushProtocol
import Testing
@testable import PushDelivery

@Suite struct DeliveryDataKeysTests {
    @Test func messageCarriesEveryKeyInOrder() {
        let pairs = DataKeys.pairs(for: Fixtures.job(.android, .message))
        #expect(pairs.map(\.0) == ["x-any-type", "x-any-id", "x-any-group-id", "x-any-payload", "x-any-signature", "x-any-key-id"])
        #expect(pairs.map(\.1) == ["normal", Fixtures.notificationId, Fixtures.groupId, Fixtures.message.payload,
                                   Fixtures.message.signature, Fixtures.message.keyId])
    }

    @Test func silentWithoutMessageHasNoPayloadKeys() {
        let pairs = DataKeys.pairs(for: Fixtures.job(.android, .silent))
        #expect(pairs.map(\.0) == ["x-any-type", "x-any-id", "x-any-group-id"])
        #expect(pairs[0].1 == "silent")
    }

    @Test func silentWithMessageKeepsIt() {
        let pairs = DataKeys.pairs(for: Fixtures.job(.android, .silent, withMessage: true))
        #expect(pairs.count == 6)
    }

    @Test func callIsTypedCall() {
        #expect(DataKeys.pairs(for: Fixtures.job(.ios, .call))[0].1 == "call")
    }

    @Test func absentGroupIdIsSentEmpty() {
        let pairs = DataKeys.pairs(for: Fixtures.job(.android, .message, groupId: nil))
        #expect(pairs[2].0 == "x-any-group-id")
        #expect(pairs[2].1 == "")
    }

    /// The engine renders a notification's keys once and hands them to each of its jobs: every
    /// gateway then writes the body it writes without them, byte for byte.
    @Test(arguments: [NotifyKind.message, .silent, .call])
    func keysRenderedOnceMakeTheSameBodies(kind: NotifyKind) throws {
        for platform in [Platform.android, .ios, .apns, .webpush] {
            let job = Fixtures.job(platform, kind, groupId: "g\"1")
            var shared = job
            shared.dataKeys = DataKeys.rendered(for: job)
            #expect(shared.dataKeys?.size == DataKeys.size(of: DataKeys.pairs(for: job)))
            #expect(Fixtures.json(JSONValue.renderedObject(shared.dataKeys!.members).bytes) as? [String: String]
                    == Dictionary(uniqueKeysWithValues: DataKeys.pairs(for: job)))
            switch platform {
            case .android, .ios:
                let configuration = FCMGateway.Configuration(projectId: "p")
                #expect(try FCMGateway.buildRequest(job: shared, credential: "c", configuration: configuration, now: Fixtures.now).body
                        == FCMGateway.buildRequest(job: job, credential: "c", configuration: configuration, now: Fixtures.now).body)
            case .apns:
                let configuration = APNsGateway.Configuration(topic: "t")
                #expect(try APNsGateway.buildRequest(job: shared, credential: "c", configuration: configuration, now: Fixtures.now).body
                        == APNsGateway.buildRequest(job: job, credential: "c", configuration: configuration, now: Fixtures.now).body)
            default:
                #expect(WebPushGateway.plaintext(for: shared) == JSONValue.strings(DataKeys.pairs(for: job)).bytes)
            }
        }
    }

    @Test func sizeCountsKeysAndValuesInUTF8() {
        #expect(DataKeys.size(of: [("ab", "cd"), ("é", "")]) == 6)
    }

    @Test func kindsMapToUrgencyAndCollapse() {
        #expect(NotifyKind.allCases == [.message, .silent, .call, .clear])
        #expect(NotifyKind.allCases.map(\.isUrgent) == [true, false, true, true])
        #expect(NotifyKind.allCases.map(\.collapses) == [true, false, false, false])
        #expect(NotifyKind.allCases.map(\.dataType) == ["normal", "silent", "call", "clear"])
        #expect(NotifyKind.allCases.map(\.defaultTTL) == [86_400, 3_600, 45, 60])
    }
}
