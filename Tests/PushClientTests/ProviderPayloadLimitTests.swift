import Foundation
import PushCrypto
import Testing
@testable import PushClient

/// The sender budgets to `min(node maxPayloadBytes, ProviderPayloadLimit.everyProvider)`.
@Suite struct ProviderPayloadLimitTests {
    let clock = TestClock()
    /// 3 UTF-8 bytes per scalar: the cut text is far above any limit.
    static let huge = OutgoingMessage(id: "m", text: String(repeating: "世", count: 2000), senderName: "alice",
                                      attachments: Array(repeating: .init(layout: 8), count: 40))

    func sealedSize(of message: OutgoingMessage, nodeLimit: Int, providerLimit: Int?) async throws -> Int {
        let node = FakeTransport(clock: clock, maxPayloadBytes: nodeLimit)
        let sender = PushSender(transport: node, account: Fixtures.account,
                                configuration: .init(providerPayloadLimit: providerLimit), clock: clock)
        sender.chatMessage(space: Fixtures.space, chat: Fixtures.chat, message: message)
        await sender.flush()
        let notify = try NotifyInspection.body(try #require(node.calls("POST /v1/notify").first))
        _ = try NotifyInspection.open(notify)
        return NotifyInspection.sealedSize(notify)
    }

    @Test func theConstantIsTheMeasuredAPNsBound() {
        #expect(ProviderPayloadLimit.everyProvider == 2685)
        #expect(PushSender.Configuration().providerPayloadLimit == 2685)
    }

    @Test func atTheNodeDefaultAMaximalPushIsShrunkToTheProviderBound() async throws {
        let size = try await sealedSize(of: Self.huge, nodeLimit: 2816, providerLimit: ProviderPayloadLimit.everyProvider)
        #expect(size <= 2685)
        #expect(size > 2685 - 3, "filled up to the bound (one scalar is 3 bytes)")
    }

    @Test func withoutTheProviderBoundTheNodeLimitIsUsed() async throws {
        let size = try await sealedSize(of: Self.huge, nodeLimit: 2816, providerLimit: nil)
        #expect(size <= 2816)
        #expect(size > 2685)
    }

    @Test func theLowerOfTheTwoWins() async throws {
        #expect(try await sealedSize(of: Self.huge, nodeLimit: 1200, providerLimit: 2685) <= 1200)
        #expect(try await sealedSize(of: Self.huge, nodeLimit: 2816, providerLimit: 900) <= 900)
    }

    @Test func theBuilderBudgetsTheSameWay() throws {
        let requests = try NotifyBuilder.requests(for: .message(Self.huge, mentions: []), space: Fixtures.space,
                                                  chat: Fixtures.chat, account: Fixtures.account)
        let body = try JSONDecoder().decode(WireNotify.self, from: Data(requests[0].body))
        #expect(NotifyInspection.sealedSize(body) <= 2685)
        #expect(requests[0].path == "/v1/notify")
    }
}
