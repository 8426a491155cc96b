import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushClient
@testable import PushConfig
@testable import PushNet
@testable import PushNode

/// The bound seams (`HTTPNodeTransport`, `PayloadKey`, `SpacePushKey`) against the real node
/// running in-process on 127.0.0.1:0: every request is signed, parsed and checked by the node.
@Suite(.serialized) struct HTTPNodeTransportTests {
    /// A node on an ephemeral port with a throwaway data directory.
    final class RunningNode {
        let node: Node
        let dataDir: String

        init() throws {
            var config = NodeConfig()
            config.listen = ListenAddress(host: "127.0.0.1", port: 0)
            config.adminListen = nil
            config.dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("pushclient-\(UUID().uuidString)").path
            config.server.threads = 2
            config.server.shutdownTimeout = 5
            config.webpush.allowPrivateEndpoints = true
            dataDir = config.dataDir
            node = Node(config: config, log: .discard)
            try node.start()
        }

        var baseURL: String { "http://127.0.0.1:\(node.port)" }

        func transport(_ account: AccountKey = Fixtures.account) throws -> HTTPNodeTransport {
            try HTTPNodeTransport(configuration: .init(baseURL: baseURL + "/"), account: account)
        }

        deinit {
            node.shutdown()
            try? FileManager.default.removeItem(atPath: dataDir)
        }
    }

    /// The vector's keys, bound to the shared types.
    static let space = PushSpace(spaceId: "spc1", name: "Project",
                                 signer: try! SpaceKeys.pushKey(firstMetadataKey: Hex.decode(AnyCompatVector.metadataKeySeed)),
                                 sealer: try! SpaceKeys.payloadKey(readKey: Hex.decode(AnyCompatVector.readKey)))

    @Test func capabilitiesAreReadUnsignedAndTheLimitsKnown() async throws {
        let running = try RunningNode()
        let cache = CapabilitiesCache(transport: try running.transport())
        #expect(await cache.limits() == Limits.default)
        #expect(await cache.isKnown)
    }

    @Test func tokensAreSetListedAndRevokedThroughSignedRequests() async throws {
        let running = try RunningNode()
        let subscriber = PushSubscriber(transport: try running.transport(), accountID: AnyCompatVector.accountId)
        let ua = try P256.PrivateKey.generate()
        let id = try await subscriber.setToken(.init(deviceId: "dev1", platform: .webpush, token: "http://127.0.0.1:9/push/1",
                                                     p256dh: ua.publicKey.base64URLRepresentation,
                                                     auth: Base64.encodeURL(SecureRandom.bytes(16))))
        #expect(id.count == 32)
        let listed = try await subscriber.registrations()
        #expect(listed.map(\.registrationId) == [id])
        #expect(listed.map(\.platform) == [.webpush])
        #expect(await subscriber.revokeToken(deviceId: "dev1") == .revoked)
        #expect(try await subscriber.registrations().isEmpty)
    }

    @Test func aRetryResendsIdenticalBytesUnderAFreshSignatureAndTheNodeCallsItADuplicate() async throws {
        let running = try RunningNode()
        let transport = try running.transport()
        let requests = try NotifyBuilder.requests(for: .message(OutgoingMessage(id: "m1", text: "hi"), mentions: []),
                                                  space: Self.space, chat: Fixtures.chat, account: Fixtures.account)
        let request = try #require(requests.first)
        let first = try await transport.send(method: "POST", path: request.path, query: nil, body: request.body)
        let again = try await transport.send(method: "POST", path: request.path, query: nil, body: request.body)
        // Not 401 auth.replayed: each try is signed with a new created/nonce.
        #expect(first.status == 200)
        #expect(again.status == 200)
        let a = try JSON.decode(NotifyResponse.self, from: first.body)
        let b = try JSON.decode(NotifyResponse.self, from: again.body)
        #expect(!a.duplicate)
        #expect(b.duplicate)
        #expect(a.id == b.id)
    }

    @Test func theSenderPublishesAndTwoReadsOfOneChatAreBothAccepted() async throws {
        let running = try RunningNode()
        let sender = PushSender(transport: try running.transport(), account: Fixtures.account,
                                configuration: .init(retry: RetryPolicy.fixed(attempts: 1), deviceId: "dev1"))
        sender.chatMessage(space: Self.space, chat: Fixtures.chat,
                           message: OutgoingMessage(id: "m1", text: String(repeating: "世", count: 3000)), mentions: [Fixtures.bob])
        sender.chatRead(space: Self.space, chat: Fixtures.chat)
        sender.chatRead(space: Self.space, chat: Fixtures.chat)
        sender.callRing(space: Self.space, chat: Fixtures.chat, call: OutgoingMessage(id: "c1", text: ""))
        await sender.shutdown()
        #expect(sender.counters.failed == [:])
        #expect(sender.counters.sent == 4, "the second read is not a duplicate of the first")
        #expect(sender.counters.duplicate == 0)
        #expect(sender.counters.shrunk == 1)
    }

    @Test func theReconcilerReplacesTheSetOnTheNode() async throws {
        let running = try RunningNode()
        let transport = try running.transport()
        let source = FakeSettingsSource()
        source.setSpace(Self.space.signer, mode: .mentions,
                        chats: [ChatNotifySetting(chatId: "c1"), ChatNotifySetting(chatId: "c2", mode: NotifyMode.none)])
        let reconciler = Reconciler(transport: transport, accountID: AnyCompatVector.accountId, source: source, tickInterval: nil)
        let pass = await reconciler.reconcile(.start)
        #expect(pass.result == .subscribed(count: 1, added: 1, removed: 0))
        let held = try await PushSubscriber(transport: transport, accountID: AnyCompatVector.accountId).subscriptions()
        #expect(held == [TopicRef(space: AnyCompatVector.spaceKey, topic: ChatTopics.mention(chatId: "c1", identity: AnyCompatVector.accountId))])
        #expect(await reconciler.reconcile(.tick).result == .unchanged(count: 1))
    }

    @Test func subscribeAndUnsubscribeOneSpacesTopics() async throws {
        let running = try RunningNode()
        let subscriber = PushSubscriber(transport: try running.transport(), accountID: AnyCompatVector.accountId)
        #expect(try await subscriber.subscribe(["chats", AnyCompatVector.accountId], in: Self.space.signer) == 2)
        #expect(try await subscriber.unsubscribe(["chats"], in: Self.space.signer) == 1)
        #expect(try await subscriber.subscriptions().map(\.topic) == [AnyCompatVector.accountId])
        try await subscriber.createSpace(Self.space.signer)
    }

    @Test func aNodeThatIsNotThereIsANetworkErrorAndABadURLIsRefused() async throws {
        let transport = try HTTPNodeTransport(configuration: .init(baseURL: "http://127.0.0.1:1", connectTimeout: .seconds(2)),
                                              account: Fixtures.account)
        await #expect(throws: (any Error).self) { _ = try await transport.send(method: "GET", path: "/v1/tokens", query: nil, body: nil) }
        #expect(throws: PushClientError.self) { _ = try HTTPNodeTransport(configuration: .init(baseURL: "ftp://x"), account: Fixtures.account) }
    }
}
