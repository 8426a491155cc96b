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

        var name: String {
            switch self {
            case .unfittable: return "payload_unfittable"
            case .sealFailed: return "seal_failed"
            }
        }
    }

    struct Plan: Sendable {
        var requests: [(path: String, body: [UInt8])]
        /// The budget step the payload needed (nil: no payload).
        var step: PayloadBudget.Step?
    }

    static func plan(_ job: SendJob, account: AccountKey, limits: Limits) -> Result<Plan, Failure> {
        let me = account.accountID.string
        let groupId = ChatTopics.groupId(chatId: job.chat.id)

        let topics: [String]
        switch job.kind {
        case .message, .call: topics = ChatTopics.message(chatId: job.chat.id, mentions: job.identities)
        case .edit: topics = ChatTopics.edit(chatId: job.chat.id, newMentions: job.identities)
        case .read: topics = ChatTopics.read(identity: me)
        }
        guard !topics.isEmpty else { return .success(Plan(requests: [], step: nil)) }

        let signer = job.space.signer
        let signed = topics.map {
            NodeWire.Topic(spaceKey: signer.spaceKey, topic: $0, signature: Base64.encode(signer.sign(topic: $0)))
        }
        let chunkSize = max(1, limits.maxTopicsPerRequest)
        let chunks = stride(from: 0, to: signed.count, by: chunkSize).map { Array(signed[$0..<min($0 + chunkSize, signed.count)]) }

        if job.kind == .read {
            let requests = chunks.map { chunk in
                (path: "/v1/notify/silent",
                 body: WireJSON.encode(NodeWire.Notify(topics: chunk, groupId: groupId, deviceId: job.skipDevice)))
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
        let sealer = job.space.sealer
        guard let fit = PayloadBudget.fit(payload, fullText: message.text, maxPayloadBytes: limits.maxPayloadBytes,
                                          sealedOverhead: sealer.sealedOverhead) else {
            return .failure(.unfittable)
        }

        var requests: [(path: String, body: [UInt8])] = []
        for chunk in chunks {
            // Each request is sealed on its own: a fresh nonce gives a distinct message signature,
            // so the node's idempotency does not take chunk 2 for a repeat of chunk 1.
            guard let sealed = try? sealer.seal(fit.plaintext) else { return .failure(.sealFailed) }
            let body = NodeWire.Notify(
                topics: chunk,
                message: NodeWire.Message(keyId: sealer.keyId, payload: Base64.encode(sealed),
                                          signature: Base64.encode(account.sign(sealed))),
                groupId: groupId,
                kind: job.kind == .call ? "call" : "message",
                ttl: job.ttl)
            requests.append((path: "/v1/notify", body: WireJSON.encode(body)))
        }
        return .success(Plan(requests: requests, step: fit.step))
    }
}
