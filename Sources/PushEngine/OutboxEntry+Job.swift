import Foundation
import PushCrypto
import PushDelivery
import PushProtocol
import PushStore

extension OutboxEntry {
    /// The gateway's view of a claimed row. `attempts` in the job counts the tries before this
    /// one (the store's count includes the claim that starts this try).
    package var job: DeliveryJob { job(message: sealedMessage) }

    /// The notification's message as the gateways carry it (base64): the same for every row of
    /// one notification, so a batch encodes it once (`ProviderLane.build`).
    package var sealedMessage: DeliveryJob.SealedMessage? {
        guard let payload = notification.payload, let signature = notification.signature, let keyId = notification.keyId else {
            return nil
        }
        return DeliveryJob.SealedMessage(payload: Base64.encode(payload), signature: Base64.encode(signature), keyId: keyId)
    }

    package func job(message: DeliveryJob.SealedMessage?) -> DeliveryJob {
        let record = notification
        return DeliveryJob(
            outboxId: id, notificationId: record.id,
            registrationId: registration.id, registration: registration.address,
            kind: record.kind, message: message, groupId: record.groupId,
            createdAt: createdAt, expiresAt: expiresAt, attempts: max(0, attempts - 1), matrix: matrixPush)
    }

    /// The Matrix push the row carries, when the Matrix door queued it (`MatrixPush.storageTag`).
    var matrixPush: MatrixPush? {
        guard notification.keyId == MatrixPush.storageTag, let payload = notification.payload else { return nil }
        return try? JSON.decode(MatrixPush.self, from: payload)
    }
}
