import PushCrypto
import PushProtocol

/// The Notify requests `PushSender` would send for a call, built now and handed back instead of
/// queued: for tools that send once and report the node's answer (`pushnode client notify`), and
/// for hosts with their own outbox. Same topics, payload, budget, sealing and signing as the sender.
public enum NotifyBuilder {
    /// One request: its path (`/v1/notify` or `/v1/notify/silent`) and exact JSON body. Resending
    /// these bytes is idempotent at the node.
    public struct Request: Sendable, Equatable {
        public let path: String
        public let body: [UInt8]
    }

    public enum Call: Sendable {
        /// `PushSender.chatMessage`.
        case message(OutgoingMessage, mentions: [String])
        /// `PushSender.chatEdit`.
        case edit(OutgoingMessage, newMentions: [String])
        /// `PushSender.chatRead`.
        case read(skipDevice: String?)
        /// `PushSender.callRing`; `ttl` in seconds (the ring window).
        case call(OutgoingMessage, invitees: [String], ttl: Int)
    }

    /// The requests of an any chat call.
    /// - Parameters:
    ///   - limits: the node's limits (`CapabilitiesCache.limits()`).
    ///   - providerPayloadLimit: as `PushSender.Configuration.providerPayloadLimit`.
    /// - Throws: `PushClientError` `client.seal_failed` (also for a payload that cannot fit at all)
    ///   or `client.bad_space_key`.
    public static func requests(for call: Call, space: PushSpace, chat: PushChat, account: AccountKey,
                                limits: Limits = .default,
                                providerPayloadLimit: Int? = ProviderPayloadLimit.everyProvider)
        throws(PushClientError) -> [Request] {
        let chatCall: ChatCall
        switch call {
        case let .message(message, mentions):
            chatCall = ChatCall(kind: .message, space: space, chat: chat, message: message, identities: mentions)
        case let .edit(message, newMentions):
            chatCall = ChatCall(kind: .edit, space: space, chat: chat, message: message, identities: newMentions)
        case let .read(skipDevice):
            chatCall = ChatCall(kind: .read, space: space, chat: chat, message: nil, identities: [], skipDevice: skipDevice)
        case let .call(message, invitees, ttl):
            chatCall = ChatCall(kind: .call, space: space, chat: chat, message: message, identities: invitees, ttl: ttl)
        }
        return try requests(SendJob(.chat(chatCall)), account: account, limits: limits, providerPayloadLimit: providerPayloadLimit)
    }

    /// The requests of a push of your own bytes (`PushSender.send(_:in:)`).
    /// - Throws: `PushClientError` `client.payload_too_large` when the sealed payload exceeds
    ///   `min(limits.maxPayloadBytes, providerPayloadLimit)`, `client.invalid_argument` for a push
    ///   the node would refuse (e.g. `replaces` or kind `clear` without `groupId`, no topics),
    ///   `client.seal_failed` or `client.bad_space_key`.
    public static func requests(for push: OutgoingPush, in space: PushSpaceKeys, account: AccountKey,
                                limits: Limits = .default,
                                providerPayloadLimit: Int? = ProviderPayloadLimit.everyProvider)
        throws(PushClientError) -> [Request] {
        try requests(SendJob(.push(push, signer: space.pushKey, sealer: space.payloadKey)), account: account,
                     limits: limits, providerPayloadLimit: providerPayloadLimit)
    }

    private static func requests(_ job: SendJob, account: AccountKey, limits: Limits, providerPayloadLimit: Int?)
        throws(PushClientError) -> [Request] {
        switch NotifyPlanner.plan(job, account: account, limits: limits, providerLimit: providerPayloadLimit) {
        case .success(let plan):
            return plan.requests.map { Request(path: $0.path, body: $0.body) }
        case .failure(let failure):
            throw PushClientError(failure)
        }
    }
}

extension PushClientError {
    /// A planning failure as the library reports it.
    init(_ failure: NotifyPlanner.Failure) {
        switch failure {
        case .badSpaceKey:
            self.init(code: .badSpaceKey, message: "the space key is not base58 of 32 bytes")
        case let .payloadTooLarge(sealedSize, budget):
            self.init(code: .payloadTooLarge, message: "the payload seals to \(sealedSize) bytes, over the limit of \(budget)")
        case .invalid(let error):
            self.init(code: .invalidArgument, message: error.message + (error.field.map { " (\($0))" } ?? ""))
        case .unfittable, .sealFailed:
            self.init(code: .sealFailed, message: failure.name)
        }
    }
}
