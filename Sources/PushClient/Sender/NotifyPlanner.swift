import PushCrypto
import PushProtocol

/// Turns a queued call into the exact Notify requests to send (pure apart from the sealer's
/// random nonce): topics from `ChatTopics`, the payload budgeted to `maxPayloadBytes`, sealed with
/// the space's payload key, signed with the account key, topics signed with the space key, and
/// split into requests of at most `maxTopicsPerRequest` topics.
enum NotifyPlanner {
    enum Failure: Error, Equatable {
        /// Even the bare payload does not fit the node's limit.
        case unfittable
        /// The sealer threw.
        case sealFailed
        /// The space signer's key is not base58 of 32 bytes.
        case badSpaceKey

        var name: String {
            switch self {
            case .unfittable: return "payload_unfittable"
            case .sealFailed: return "seal_failed"
            case .badSpaceKey: return "bad_space_key"
            }
        }
    }

    struct Plan: Sendable {
        var requests: [(path: String, body: [UInt8])]
        /// The budget step the payload needed (nil: no payload).
        var step: PayloadBudget.Step?
    }

    /// - Parameter providerLimit: the sealed-size bound that still reaches every provider
    ///   (`ProviderPayloadLimit.everyProvider` by default); nil budgets to the node's limit alone.
    static func plan(_ job: SendJob, account: AccountKey, limits: Limits,
                     providerLimit: Int? = ProviderPayloadLimit.everyProvider) -> Result<Plan, Failure> {
        let me = account.accountID.string
        let groupId = ChatTopics.groupId(chatId: job.chat.id)

        let topics: [String]
        switch job.kind {
        case .message, .call: topics = ChatTopics.message(chatId: job.chat.id, mentions: job.identities)
        case .edit: topics = ChatTopics.edit(chatId: job.chat.id, newMentions: job.identities)
        case .read: topics = ChatTopics.read(identity: me)
        }
        guard !topics.isEmpty else { return .success(Plan(requests: [], step: nil)) }

        guard let signed = try? job.space.signer.signedTopics(topics) else { return .failure(.badSpaceKey) }
        let chunkSize = max(1, limits.maxTopicsPerRequest)
        let chunks = stride(from: 0, to: signed.count, by: chunkSize).map { Array(signed[$0..<min($0 + chunkSize, signed.count)]) }
        let sealer = job.space.sealer

        if job.kind == .read {
            // A read carries a small sealed read marker: the node dedups a message-less silent
            // Notify on its topics + groupId for 24 h (PROTOCOL §4), which would drop every later
            // read of the same chat that day. A fresh nonce makes each marker's signature unique.
            let marker = PushPayload(spaceId: job.space.spaceId, spaceUxType: job.space.uxType, spaceType: job.space.type,
                                     senderId: me, type: PushPayload.chatRead,
                                     newMessage: PushPayload.NewMessage(chatId: job.chat.id, msgId: ""))
            var requests: [(path: String, body: [UInt8])] = []
            for chunk in chunks {
                guard let message = seal(marker.jsonBytes(), sealer: sealer, account: account) else { return .failure(.sealFailed) }
                let body = NotifySilentRequest(topics: chunk, message: message, groupId: groupId, deviceId: job.skipDevice)
                requests.append((path: "/v1/notify/silent", body: WireJSON.encode(body)))
            }
            return .success(Plan(requests: requests, step: nil))
        }

        guard let message = job.message else { return .success(Plan(requests: [], step: nil)) }
        let payload = PushPayload(
            spaceId: job.space.spaceId, spaceUxType: job.space.uxType, spaceType: job.space.type, senderId: me,
            type: job.kind == .call ? PushPayload.callRing : PushPayload.chatMessage,
            newMessage: PushPayload.NewMessage(
                chatId: job.chat.id, msgId: message.id, spaceName: job.space.name, chatName: job.chat.name,
                senderName: message.senderName, text: PushText.truncate(message.text),
                hasAttachments: !message.attachments.isEmpty, attachments: message.attachments))
        let budget = min(limits.maxPayloadBytes, providerLimit ?? Int.max)
        guard let fit = PayloadBudget.fit(payload, fullText: message.text, maxPayloadBytes: budget,
                                          sealedOverhead: sealer.sealedOverhead) else {
            return .failure(.unfittable)
        }

        var requests: [(path: String, body: [UInt8])] = []
        for chunk in chunks {
            // Each request is sealed on its own: a fresh nonce gives a distinct message signature,
            // so the node's idempotency does not take chunk 2 for a repeat of chunk 1.
            guard let sealed = seal(fit.plaintext, sealer: sealer, account: account) else { return .failure(.sealFailed) }
            let body = NotifyRequest(topics: chunk, message: sealed, groupId: groupId,
                                     kind: job.kind == .call ? .call : .message, ttl: job.ttl)
            requests.append((path: "/v1/notify", body: WireJSON.encode(body)))
        }
        return .success(Plan(requests: requests, step: fit.step))
    }

    /// Seals with the space's payload key and signs the sealed bytes with the account key.
    private static func seal(_ plaintext: [UInt8], sealer: any PayloadSealer, account: AccountKey) -> NotifyMessage? {
        guard let sealed = try? sealer.seal(plaintext) else { return nil }
        return NotifyMessage(keyId: sealer.keyId, payload: sealed.bytes, signature: account.sign(sealed.bytes))
    }
}
