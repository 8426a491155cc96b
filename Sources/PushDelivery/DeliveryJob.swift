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
    package var registration: Registration
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

    package init(outboxId: Int64, notificationId: String, registration: Registration, kind: NotifyKind,
                message: SealedMessage?, groupId: String?, createdAt: Date, expiresAt: Date, attempts: Int = 0) {
        self.outboxId = outboxId
        self.notificationId = notificationId
        self.registration = registration
        self.kind = kind
        self.message = message
        self.groupId = groupId
        self.createdAt = createdAt
        self.expiresAt = expiresAt
        self.attempts = attempts
    }

    /// The device registration a job is addressed to.
    package struct Registration: Sendable, Equatable {
        package var registrationId: String
        package var platform: Platform
        /// FCM registration token, hex APNs/PushKit token, or the Web Push endpoint URL.
        package var token: String
        /// Web Push only: the subscriber's uncompressed P-256 point, as stored (raw bytes: the
        /// gateway encrypts with them, so they are never encoded on the way).
        package var p256dh: [UInt8]?
        /// Web Push only: the 16-byte auth secret.
        package var auth: [UInt8]?
        package var appId: String
        /// `production` or `development` for `apns`/`apns_voip`, empty for the rest.
        package var environment: String

        package init(registrationId: String, platform: Platform, token: String, p256dh: [UInt8]? = nil,
                    auth: [UInt8]? = nil, appId: String = "default", environment: String = "") {
            self.registrationId = registrationId
            self.platform = platform
            self.token = token
            self.p256dh = p256dh
            self.auth = auth
            self.appId = appId
            self.environment = environment
        }
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
