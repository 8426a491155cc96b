import Foundation
import PushCrypto
import PushProtocol
import PushStore

extension PushService {
    /// `POST /v1/notify`: checks, resolves the recipients (subscribers minus the caller), routes per
    /// device, and queues one durable delivery each — answering only after the commit.
    package func notify(_ request: NotifyRequest, caller: AccountID) throws(ServiceError) -> NotifyResponse {
        try shaped(request.validateShape())
        try checkTopicCount(request.topics.count)
        if let message = request.message { try checkMessage(message, caller: caller) }
        try verifySignatures(of: request.topics.enumerated().map { ($0.offset, $0.element) })
        let refs = try permittedTopics(request.topics.map(\.ref), caller: caller)
        let fanOut = FanOut(kind: request.effectiveKind, enabledPlatforms: configuration.enabledPlatforms,
                            excludedAccount: caller.string, replacesGroup: request.effectiveReplaces ? request.groupId : nil)
        return try enqueue(fanOut, ttl: request.effectiveTTL, message: request.message, groupId: request.groupId,
                           key: request.idempotencyKey, caller: caller, topics: refs)
    }

    /// `POST /v1/notify/silent`: only topics equal to the caller's account id are kept (others are
    /// dropped silently); recipients include the caller, minus the sending device.
    package func notifySilent(_ request: NotifySilentRequest, caller: AccountID) throws(ServiceError) -> NotifyResponse {
        try shaped(request.validateShape())
        try checkTopicCount(request.topics.count)
        if let deviceId = request.deviceId { try TokenRules.checkDeviceId(deviceId) }
        if let message = request.message { try checkMessage(message, caller: caller) }
        let own = request.topics.enumerated().filter { Self.isOwn($0.element, caller: caller) }
        try verifySignatures(of: own.map { ($0.offset, $0.element) })
        let refs = try permittedTopics(own.map(\.element.ref), caller: caller)
        let fanOut = FanOut(kind: .silent, enabledPlatforms: configuration.enabledPlatforms,
                            excludedDevice: request.deviceId.map { (caller.string, $0) },
                            replacesGroup: request.replaces == true ? request.groupId : nil)
        return try enqueue(fanOut, ttl: request.effectiveTTL, message: request.message, groupId: request.groupId,
                           key: request.idempotencyKey, caller: caller, topics: refs)
    }

    /// Whether a silent Notify keeps `topic`: only topics equal to the caller's account id are (the
    /// others are dropped silently).
    package static func isOwn(_ topic: Topic, caller: AccountID) -> Bool { topic.topic == caller.string }

    /// Size (`payload.too_large`), then the caller's signature.
    private func checkMessage(_ message: NotifyMessage, caller: AccountID) throws(ServiceError) {
        guard message.payload.count <= limits.maxPayloadBytes else {
            throw .refused(.payloadTooLarge, "the payload is over \(limits.maxPayloadBytes) bytes", field: "message.payload")
        }
        try verifySignature(of: message, caller: caller)
    }

    /// `message.signature_invalid` unless the caller signed the payload. Also called by the any-sync
    /// door for a Notify it answers without queueing (no topic left, PROTOCOL §8).
    package func verifySignature(of message: NotifyMessage, caller: AccountID) throws(ServiceError) {
        guard message.isSigned(by: caller) else {
            throw .refused(.messageSignatureInvalid, "message.signature is not the caller's signature of the payload",
                           field: "message.signature")
        }
    }

    /// Unique topics, without those of unregistered spaces when registration is required.
    private func permittedTopics(_ refs: [TopicRef], caller: AccountID) throws(ServiceError) -> [TopicRef] {
        var unique = Array(Set(refs))
        if configuration.requireSpaceRegistration && !unique.isEmpty {
            let spaces = try stored(.read) { try registry.spaces(ofAccount: caller.string) }
            unique.removeAll { !spaces.contains($0.spaceKey.string) }
        }
        return unique
    }

    /// The duplicate check, fan-out and the one-transaction write shared by both Notify forms.
    private func enqueue(_ fanOut: FanOut, ttl: Int, message: NotifyMessage?, groupId: String?, key: IdempotencyKey?,
                         caller: AccountID, topics: [TopicRef]) throws(ServiceError) -> NotifyResponse {
        let now = clock()
        let windowStart = now.addingTimeInterval(-Self.idempotencyWindow)
        // No read first: the write transaction checks the key (a read on every Notify cost more than
        // the rare retry's write saves).
        let record = NotificationRecord(
            id: Self.newNotificationID(), kind: fanOut.kind, keyId: message?.keyId, payload: message?.payload,
            signature: message?.signature, groupId: groupId, createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(ttl)))
        let result = try stored(.write) {
            try notifications.enqueue(record, fanningOut: fanOut, to: topics, caller: caller.string, key: key, duplicateSince: windowStart)
        }
        switch result.outcome {
        case .accepted(let id):
            count {
                $0.notificationsAccepted += 1
                $0.deliveriesQueued += result.queued
                $0.deliveriesSuperseded += result.superseded
            }
            if result.queued > 0, let wake = configuration.deliveriesQueued {
                // The providers that may have work (the store counts rows, not providers).
                wake(Set(fanOut.enabledPlatforms.map(\.provider)))
            }
            return NotifyResponse(id: id, duplicate: false, queued: result.queued)
        case .duplicate(let first):
            count { $0.notificationsDuplicate += 1 }
            return NotifyResponse(id: first, duplicate: true)
        }
    }

    /// A random 128-bit id in lowercase hex.
    static func newNotificationID() -> String { Hex.encode(SecureRandom.bytes(16)) }
}
