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
