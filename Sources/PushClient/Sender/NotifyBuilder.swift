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

    /// - Parameters:
    ///   - limits: the node's limits (`CapabilitiesCache.limits()`).
    ///   - providerPayloadLimit: as `PushSender.Configuration.providerPayloadLimit`.
    /// - Throws: `PushClientError` `client.seal_failed` (also for a payload that cannot fit at all)
    ///   or `client.bad_space_key`.
    public static func requests(for call: Call, space: PushSpace, chat: PushChat, account: AccountKey,
                                limits: Limits = .default,
                                providerPayloadLimit: Int? = ProviderPayloadLimit.everyProvider)
        throws(PushClientError) -> [Request] {
        let job: SendJob
        switch call {
        case let .message(message, mentions):
            job = SendJob(kind: .message, space: space, chat: chat, message: message, identities: mentions)
        case let .edit(message, newMentions):
            job = SendJob(kind: .edit, space: space, chat: chat, message: message, identities: newMentions)
        case let .read(skipDevice):
            job = SendJob(kind: .read, space: space, chat: chat, message: nil, identities: [], skipDevice: skipDevice)
        case let .call(message, invitees, ttl):
            job = SendJob(kind: .call, space: space, chat: chat, message: message, identities: invitees, ttl: ttl)
        }
        switch NotifyPlanner.plan(job, account: account, limits: limits, providerLimit: providerPayloadLimit) {
        case .success(let plan):
            return plan.requests.map { Request(path: $0.path, body: $0.body) }
        case .failure(.badSpaceKey):
            throw PushClientError(code: .badSpaceKey, message: "the space key is not base58 of 32 bytes")
        case .failure(let failure):
            throw PushClientError(code: .sealFailed, message: failure.name)
        }
    }
}
