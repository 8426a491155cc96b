import PushCrypto

/// any's chat vocabulary on top of the generic push (Spec/any-compat.md): which topics a chat
/// call publishes, its `groupId`, kind and ttl, and the payload JSON budgeted to fit. The result is
/// an `OutgoingPush` that `NotifyPlanner` signs, seals and sends like any other.
enum ChatPushes {
    /// The push for `call`, with the budget step its payload needed; nil when the call publishes
    /// nothing (no topics, or a message kind without a message).
    /// - Returns: `.failure(.unfittable)` when even the bare payload exceeds `budget`.
    static func push(for call: ChatCall, sender me: String, budget: Int, sealedOverhead: Int)
        -> Result<(push: OutgoingPush, step: PayloadBudget.Step?)?, NotifyPlanner.Failure> {
        let groupId = ChatTopics.groupId(chatId: call.chat.id)
        let topics: [String]
        switch call.kind {
        case .message, .call: topics = ChatTopics.message(chatId: call.chat.id, mentions: call.identities)
        case .edit: topics = ChatTopics.edit(chatId: call.chat.id, newMentions: call.identities)
        case .read: topics = ChatTopics.read(identity: me)
        }
        guard !topics.isEmpty else { return .success(nil) }
        let space = call.space

        if call.kind == .read {
            // A read carries a small sealed read marker: the node dedups a message-less silent
            // Notify on its topics + groupId for 24 h (PROTOCOL §4), which would drop every later
            // read of the same chat that day. A fresh nonce makes each marker's signature unique.
            let marker = PushPayload(spaceId: space.spaceId, spaceUxType: space.uxType, spaceType: space.type,
                                     senderId: me, type: PushPayload.chatRead,
                                     newMessage: PushPayload.NewMessage(chatId: call.chat.id, msgId: ""))
            let push = OutgoingPush(.ownDevices(skipDevice: call.skipDevice), topics: topics, payload: marker.jsonBytes(),
                                    groupId: groupId)
            return .success((push, nil))
        }

        guard let message = call.message else { return .success(nil) }
        let payload = PushPayload(
            spaceId: space.spaceId, spaceUxType: space.uxType, spaceType: space.type, senderId: me,
            type: call.kind == .call ? PushPayload.callRing : PushPayload.chatMessage,
            newMessage: PushPayload.NewMessage(
                chatId: call.chat.id, msgId: message.id, spaceName: space.name, chatName: call.chat.name,
                senderName: message.senderName, text: PushText.truncate(message.text),
                hasAttachments: !message.attachments.isEmpty, attachments: message.attachments))
        guard let fit = PayloadBudget.fit(payload, fullText: message.text, maxPayloadBytes: budget,
                                          sealedOverhead: sealedOverhead) else {
            return .failure(.unfittable)
        }
        let push = OutgoingPush(.notify(call.kind == .call ? .call : .message), topics: topics, payload: fit.plaintext,
                                groupId: groupId, ttl: call.ttl)
        return .success((push, fit.step))
    }
}
