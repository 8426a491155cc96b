import Foundation
import PushCrypto
import PushDelivery
import PushProtocol
import PushStore

extension OutboxEntry {
    /// The gateway's view of a claimed row. `attempts` in the job counts the tries before this
    /// one (the store's count includes the claim that starts this try).
    package var job: DeliveryJob {
        let record = notification
        var message: DeliveryJob.SealedMessage?
        if let payload = record.payload, let signature = record.signature, let keyId = record.keyId {
            message = DeliveryJob.SealedMessage(payload: Base64.encode(payload), signature: Base64.encode(signature),
                                                keyId: keyId)
        }
        return DeliveryJob(
            outboxId: id, notificationId: record.id,
            registration: DeliveryJob.Registration(
                registrationId: registration.id, platform: registration.platform, token: registration.token,
                p256dh: registration.p256dh.map { Base64.encodeURL($0) }, auth: registration.auth.map { Base64.encodeURL($0) },
                appId: registration.appId, environment: registration.environment),
            kind: record.kind, message: message, groupId: record.groupId,
            createdAt: createdAt, expiresAt: expiresAt, attempts: max(0, attempts - 1))
    }
}
