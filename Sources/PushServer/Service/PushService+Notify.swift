import Foundation
import PushCrypto
import PushProtocol

extension PushService {
    /// `POST /v1/notify`: checks, resolves the recipients (subscribers minus the caller), routes per
    /// device, and queues one durable delivery each — answering only after the commit.
    public func notify(_ request: NotifyRequest, caller: AccountID) throws -> NotifyResponse {
        try request.validateShape()
        try checkTopicCount(request.topics.count)
        try checkMessage(request.message, caller: caller)
        try verifySignatures(of: request.topics.enumerated().map { ($0.offset, $0.element) })
        let refs = try permittedTopics(request.topics.map(\.ref), caller: caller)
        return try enqueue(
            kind: request.effectiveKind, ttl: request.effectiveTTL, message: request.message, groupId: request.groupId,
            key: request.idempotencyKey, caller: caller, topics: refs
        ) { $0.account != caller.string }
    }

    /// `POST /v1/notify/silent`: only topics equal to the caller's account id are kept (others are
    /// dropped silently); recipients include the caller, minus the sending device.
    public func notifySilent(_ request: NotifySilentRequest, caller: AccountID) throws -> NotifyResponse {
        try request.validateShape()
        try checkTopicCount(request.topics.count)
        if let deviceId = request.deviceId, !(1...128).contains(deviceId.count) {
            throw APIError.invalid("deviceId", "deviceId must be 1–128 characters")
        }
        if let message = request.message { try checkMessage(message, caller: caller) }
        let own = request.topics.enumerated().filter { $0.element.topic == caller.string }
        try verifySignatures(of: own.map { ($0.offset, $0.element) })
        let refs = try permittedTopics(own.map(\.element.ref), caller: caller)
        let skipped = request.deviceId
        return try enqueue(
            kind: .silent, ttl: request.effectiveTTL, message: request.message, groupId: request.groupId,
            key: request.idempotencyKey, caller: caller, topics: refs
        ) { !($0.account == caller.string && $0.deviceId == skipped) }
    }

    /// Size (413 `payload.too_large`) and the caller's signature (400 `message.signature_invalid`).
    private func checkMessage(_ message: NotifyMessage, caller: AccountID) throws {
        guard message.payload.count <= limits.maxPayloadBytes else {
            throw APIError(status: 413, code: .payloadTooLarge,
                           message: "the payload is over \(limits.maxPayloadBytes) bytes", field: "message.payload")
        }
        guard message.isSigned(by: caller) else {
            throw APIError(status: 400, code: .messageSignatureInvalid,
                           message: "message.signature is not the caller's signature of the payload", field: "message.signature")
        }
    }

    /// Unique topics, without those of unregistered spaces when registration is required.
    private func permittedTopics(_ refs: [TopicRef], caller: AccountID) throws -> [TopicRef] {
        var unique = Array(Set(refs))
        if configuration.requireSpaceRegistration && !unique.isEmpty {
            let spaces = try store.spaces(ofAccount: caller.string)
            unique.removeAll { !spaces.contains($0.spaceKey.string) }
        }
        return unique
    }

    /// The duplicate check, fan-out and the one-transaction write shared by both Notify forms.
    private func enqueue(kind: NotifyKind, ttl: Int, message: NotifyMessage?, groupId: String?, key: IdempotencyKey,
                         caller: AccountID, topics: [TopicRef],
                         including: (Recipient) -> Bool) throws -> NotifyResponse {
        let now = clock()
        let windowStart = now.addingTimeInterval(-Self.idempotencyWindow)
        // Fast path: a retry is answered without resolving recipients. The write below checks again.
        if let first = try store.acceptedNotification(caller: caller.string, key: key, since: windowStart) {
            count { $0.notificationsDuplicate += 1 }
            return NotifyResponse(id: first, duplicate: true)
        }
        let recipients = topics.isEmpty ? [] : try store.recipients(of: topics).filter { recipient in
            including(recipient) && configuration.enabledPlatforms.contains(recipient.platform)
        }
        let deliveries = DeliveryRouting.deliveries(of: kind, to: recipients)
        let record = NotificationRecord(
            id: Self.newNotificationID(), kind: kind, keyId: message?.keyId, payload: message?.payload,
            signature: message?.signature, groupId: groupId, createdAt: now, expiresAt: now.addingTimeInterval(TimeInterval(ttl)))
        switch try store.enqueue(record, deliveries: deliveries, caller: caller.string, key: key, duplicateSince: windowStart) {
        case .accepted(let id):
            count {
                $0.notificationsAccepted += 1
                $0.deliveriesQueued += deliveries.count
            }
            if !deliveries.isEmpty, let wake = configuration.deliveriesQueued {
                wake(Set(deliveries.map(\.provider)))
            }
            return NotifyResponse(id: id, duplicate: false)
        case .duplicate(let first):
            count { $0.notificationsDuplicate += 1 }
            return NotifyResponse(id: first, duplicate: true)
        }
    }

    /// A random 128-bit id in lowercase hex.
    static func newNotificationID() -> String { Hex.encode(SecureRandom.bytes(16)) }
}
