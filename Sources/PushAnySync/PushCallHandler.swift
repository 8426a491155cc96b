import PushCrypto
import PushProtocol
import PushService

/// The `pushproto.Push` service of one authenticated any-sync connection: decodes a call, applies
/// the shared rate limits, calls `PushService` as the handshake's account and peer (PROTOCOL §8),
/// and encodes the answer or, through `AnySyncErrorCode`, the rpcerr code.
///
/// The door verifies nothing the service verifies: it reads the wire (`PushWire+Service`) and adds
/// only what its rpcs do differently from the HTTP routes.
struct PushCallHandler: Sendable {
    let service: PushService
    let rateLimiter: RateLimiter
    let caller: AccountID
    /// The caller's peer id: its device id.
    let peerID: String
    /// The connection's client address (`ClientAddress.key`): an account the node has not seen
    /// draws from its budget too.
    var client: String? = nil
    /// Called once per SetToken of a platform without credentials (the door stores it anyway).
    let disabledPlatformToken: @Sendable (Platform) -> Void
    let enabledPlatforms: Set<Platform>

    private static let ok: DRPCReply = .message([])

    func handle(rpc path: String, body: [UInt8]) -> DRPCReply {
        guard let rpc = PushRPC(path: path) else { return AnySyncErrorCode.unknownRPCReply(path) }
        if case .denied = rateLimiter.take(account: caller, rateClass: rpc.operation.rateClass, client: client) {
            return AnySyncErrorCode.reply(for: .refused(.rateLimited, "rate limit exceeded"))
        }
        do {
            return try call(rpc, body: body)
        } catch {
            return AnySyncErrorCode.reply(for: error)
        }
    }

    private func call(_ rpc: PushRPC, body: [UInt8]) throws(ServiceError) -> DRPCReply {
        switch rpc {
        case .setToken:
            let wire = try PushWire.decoded(PushWire.setToken(body))
            let platform = try PushWire.platform(wire.platform)
            if !enabledPlatforms.contains(platform) { disabledPlatformToken(platform) }
            _ = try service.setToken(SetTokenRequest(deviceId: peerID, platform: platform, token: wire.token), caller: caller,
                                     admittingDisabledPlatform: true)
        case .revokeToken:
            _ = try service.revokeToken(RevokeTokenRequest(.device(peerID)), caller: caller)
        case .createSpace, .removeSpace:
            let request = try PushWire.spaceRequest(PushWire.decoded(PushWire.space(body)))
            _ = rpc == .createSpace ? try service.createSpace(request, caller: caller)
                                    : try service.removeSpace(request, caller: caller)
        case .subscriptions:
            let topics = try service.subscriptions(caller: caller).topics
            return .message(PushWire.subscriptionsResponse(topics.map { ($0.spaceKey.publicKey, $0.topic) }))
        case .subscribe:
            _ = try service.subscribe(SubscribeRequest(topics: try topics(body)), caller: caller)
        case .subscribeAll:
            _ = try service.subscribeAll(SubscribeRequest(topics: try topics(body)), caller: caller)
        case .unsubscribe:
            let topics = try topics(body)
            // The reference checks these signatures; the HTTP route takes none, so the service alone does not.
            try service.verifySignatures(of: topics.enumerated().map { ($0.offset, $0.element) })
            if !topics.isEmpty { _ = try service.unsubscribe(UnsubscribeRequest(topics: topics.map(\.ref)), caller: caller) }
        case .notify:
            try notify(PushWire.decoded(PushWire.notify(body)))
        case .notifySilent:
            try notifySilent(PushWire.decoded(PushWire.notify(body)))
        }
        return Self.ok
    }

    /// Kind `message`; a missing message is refused (code 0, the reference's text); no topic is Ok
    /// with nothing queued (as the reference), once the message's signature verified.
    private func notify(_ request: PushWire.NotifyRequest) throws(ServiceError) {
        let topics = try PushWire.serviceTopics(request.topics)
        guard let wire = request.message else { throw .refused(.missingField, "push: message is required", field: "message") }
        let message = try PushWire.serviceMessage(wire)
        guard !topics.isEmpty else { return try service.verifySignature(of: message, caller: caller) }
        _ = try service.notify(NotifyRequest(topics: topics, message: message, groupId: groupId(of: request), kind: .message),
                               caller: caller)
    }

    /// The calling peer's own device is skipped. The reference verifies every topic, the service only
    /// those it keeps (the caller's own): the others go through its verification first. None of the
    /// caller's own left is Ok with nothing queued, once the message's signature verified.
    private func notifySilent(_ request: PushWire.NotifyRequest) throws(ServiceError) {
        let topics = try PushWire.serviceTopics(request.topics)
        let message = try request.message.map(PushWire.serviceMessage)
        try service.verifySignatures(of: topics.enumerated().filter { !PushService.isOwn($0.element, caller: caller) }
                                               .map { ($0.offset, $0.element) })
        guard topics.contains(where: { PushService.isOwn($0, caller: caller) }) else {
            if let message { try service.verifySignature(of: message, caller: caller) }
            return
        }
        _ = try service.notifySilent(NotifySilentRequest(topics: topics, message: message, groupId: groupId(of: request),
                                                         deviceId: peerID), caller: caller)
    }

    private func topics(_ body: [UInt8]) throws(ServiceError) -> [Topic] {
        try PushWire.serviceTopics(PushWire.decoded(PushWire.topicsRequest(body)))
    }

    /// An empty `groupId` means none.
    private func groupId(of request: PushWire.NotifyRequest) -> String? {
        request.groupId.isEmpty ? nil : request.groupId
    }
}
