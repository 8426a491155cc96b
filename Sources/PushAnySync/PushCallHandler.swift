import PushCrypto
import PushProtocol
import PushService

/// The `pushproto.Push` service of one authenticated any-sync connection: decodes a call, applies
/// the shared rate limits, calls `PushService` as the handshake's account and peer (PROTOCOL §8),
/// and encodes the answer or the rpcerr code.
struct PushCallHandler: Sendable {
    let service: PushService
    let rateLimiter: RateLimiter
    let caller: AccountID
    /// The caller's peer id: its device id.
    let peerID: String
    /// Called once per SetToken of a platform without credentials (the door stores it anyway).
    let disabledPlatformToken: @Sendable (Platform) -> Void
    let enabledPlatforms: Set<Platform>

    static let prefix = "/pushproto.Push/"
    private static let ok: DRPCReply = .message([])

    func handle(rpc: String, body: [UInt8]) -> DRPCReply {
        guard rpc.hasPrefix(Self.prefix) else { return .error(code: 0, message: "unknown rpc: \"\(rpc)\"") }
        let method = rpc.dropFirst(Self.prefix.count)
        let rateClass: RateClass = method == "Notify" || method == "NotifySilent" ? .notify : .registration
        guard Self.methods.contains(String(method)) else { return .error(code: 0, message: "unknown rpc: \"\(rpc)\"") }
        if case .denied = rateLimiter.take(account: caller, rateClass: rateClass) { return AnySyncErrorCode.rateLimitedReply }
        do {
            return try call(String(method), body: body)
        } catch let error as AnySyncWireError {
            return AnySyncErrorCode.unexpected("cannot decode the request: \(error)")
        } catch let reply as Refusal {
            return reply.reply
        } catch {
            return AnySyncErrorCode.reply(for: error)
        }
    }

    static let methods: Set<String> = ["SetToken", "RevokeToken", "CreateSpace", "RemoveSpace", "Subscriptions",
                                       "Subscribe", "Unsubscribe", "SubscribeAll", "Notify", "NotifySilent"]

    /// A reply decided before the service was called.
    private struct Refusal: Error { let reply: DRPCReply }

    private func call(_ method: String, body: [UInt8]) throws -> DRPCReply {
        switch method {
        case "SetToken":
            let (platformValue, token) = try PushWire.setToken(body)
            let platform: Platform
            switch platformValue {
            case 0: platform = .ios
            case 1: platform = .android
            default: throw Refusal(reply: AnySyncErrorCode.unexpected("unknown platform \(platformValue)"))
            }
            if !enabledPlatforms.contains(platform) { disabledPlatformToken(platform) }
            _ = try service.setToken(SetTokenRequest(deviceId: peerID, platform: platform, token: token), caller: caller,
                                     admittingDisabledPlatform: true)
        case "RevokeToken":
            _ = try service.revokeToken(RevokeTokenRequest(.device(peerID)), caller: caller)
        case "CreateSpace", "RemoveSpace":
            let (key, signature) = try PushWire.space(body)
            let request = SpaceRequest(spaceKey: try spaceKey(key), signature: signature)
            guard signature.count == 64 else { return AnySyncErrorCode.invalidSignatureReply }
            _ = method == "CreateSpace" ? try service.createSpace(request, caller: caller)
                                        : try service.removeSpace(request, caller: caller)
        case "Subscriptions":
            let topics = try service.subscriptions(caller: caller).topics
            return .message(PushWire.subscriptionsResponse(topics.map { ($0.spaceKey.publicKey, $0.topic) }))
        case "Subscribe":
            _ = try service.subscribe(SubscribeRequest(topics: try signedTopics(PushWire.topicsRequest(body))), caller: caller)
        case "SubscribeAll":
            _ = try service.subscribeAll(SubscribeRequest(topics: try signedTopics(PushWire.topicsRequest(body))), caller: caller)
        case "Unsubscribe":
            let topics = try signedTopics(PushWire.topicsRequest(body))
            if !topics.isEmpty { _ = try service.unsubscribe(UnsubscribeRequest(topics: topics.map(\.ref)), caller: caller) }
        case "Notify":
            try notify(PushWire.notify(body), silent: false)
        case "NotifySilent":
            try notify(PushWire.notify(body), silent: true)
        default:
            return .error(code: 0, message: "unknown rpc")
        }
        return Self.ok
    }

    private func notify(_ request: PushWire.NotifyRequest, silent: Bool) throws {
        let topics = try signedTopics(request.topics)
        let groupId = request.groupId.isEmpty ? nil : request.groupId
        let message = request.message.map { NotifyMessage(keyId: $0.keyId, payload: $0.payload, signature: $0.signature) }
        if let message, !message.isSigned(by: caller) { throw Refusal(reply: AnySyncErrorCode.invalidSignatureReply) }
        if silent {
            guard topics.contains(where: { $0.topic == caller.string }) else { return }
            _ = try service.notifySilent(NotifySilentRequest(topics: topics, message: message, groupId: groupId, deviceId: peerID),
                                         caller: caller)
        } else {
            guard let message else { throw Refusal(reply: AnySyncErrorCode.unexpected("push: message is required")) }
            guard !topics.isEmpty else { return } // the reference answers Ok when no topic is left
            _ = try service.notify(NotifyRequest(topics: topics, message: message, groupId: groupId, kind: .message), caller: caller)
        }
    }

    /// Wire topics as service topics: a space key that is not 32 bytes is 1200 (as the reference's
    /// code-0 error), a signature that does not verify 1202 — checked here in request order.
    private func signedTopics(_ wire: [PushWire.Topic]) throws -> [Topic] {
        try wire.map { topic in
            let key = try spaceKey(topic.spaceKey)
            guard key.verify(signature: topic.signature, message: Array(topic.topic.utf8)) else {
                throw Refusal(reply: AnySyncErrorCode.invalidTopicSignatureReply)
            }
            return Topic(spaceKey: key, topic: topic.topic, signature: topic.signature)
        }
    }

    private func spaceKey(_ bytes: [UInt8]) throws -> SpaceKey {
        guard let key = try? SpaceKey(publicKey: bytes) else {
            throw Refusal(reply: AnySyncErrorCode.unexpected("expect ed25519 public key data size to be 32"))
        }
        return key
    }
}
