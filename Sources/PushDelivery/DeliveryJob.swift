import Foundation
import PushProtocol

/// Everything a gateway needs for one delivery to one registration: the outbox row, resolved.
///
/// The outbox stores these; the engine loads one, asks its gateway for the request, sends it,
/// and feeds the answer's classification to `RetryPolicy.decide`.
package struct DeliveryJob: Sendable, Equatable {
    /// The outbox row's id; also seeds the APNs `apns-id`.
    package var outboxId: Int64
    /// The Notify `id`, sent as `x-any-id` so a device can drop a duplicate.
    package var notificationId: String
    /// The registration the job goes to (`pruneRegistration` takes it when the provider says the
    /// token is dead).
    package var registrationId: String
    /// Where that registration's pushes go.
    package var registration: DeliveryAddress
    package var kind: NotifyKind
    /// The sealed message, when the Notify carried one (always for `message`).
    package var message: SealedMessage?
    /// The collapse key (`x-any-group-id`, `collapse_key`, `apns-collapse-id`, `thread-id`, `Topic`).
    package var groupId: String?
    package var createdAt: Date
    /// When the Notify's ttl runs out; nothing is sent after it, and each provider is told the
    /// time that remains.
    package var expiresAt: Date
    /// Tries already made before the current one (0 on the first send).
    package var attempts: Int
    /// Set for a push the Matrix door queued: the gateways then send the Matrix shapes of
    /// Spec/matrix.md instead of PROTOCOL §5's data keys.
    package var matrix: MatrixPush?
    /// `DataKeys.rendered(for:)` of this job, when the engine rendered it for the job's
    /// notification already; nil: the gateway renders it.
    package var dataKeys: DataKeys.Rendered?

    package init(outboxId: Int64, notificationId: String, registrationId: String, registration: DeliveryAddress,
                kind: NotifyKind, message: SealedMessage?, groupId: String?, createdAt: Date, expiresAt: Date, attempts: Int = 0,
                matrix: MatrixPush? = nil) {
        self.outboxId = outboxId
        self.notificationId = notificationId
        self.registrationId = registrationId
        self.registration = registration
        self.kind = kind
        self.message = message
        self.groupId = groupId
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
        self.matrix = matrix
    }

    /// A Notify's `message`, exactly as the sender sent it (the node never opens it).
    package struct SealedMessage: Sendable, Equatable {
        /// Standard base64 of `nonce ‖ ciphertext ‖ tag`.
        package var payload: String
        /// Standard base64 of the sender's Ed25519 signature over the payload bytes.
        package var signature: String
        /// Lowercase hex SHA-256 of the payload key.
        package var keyId: String

        package init(payload: String, signature: String, keyId: String) {
            self.payload = payload
            self.signature = signature
            self.keyId = keyId
        }
    }

    /// Whole seconds of ttl left at `now` (negative once expired); what providers are told.
    package func remainingTTL(at now: Date) -> Int {
        Int(expiresAt.timeIntervalSince(now).rounded(.down))
    }

    /// True when less than one whole second of ttl is left: such a job is never sent.
    package func isExpired(at now: Date) -> Bool { remainingTTL(at: now) < 1 }
}
