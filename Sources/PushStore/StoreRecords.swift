import Foundation
import PushProtocol

/// A device token registration as stored.
package struct Registration: Sendable, Equatable {
    package var id: String
    package var account: String
    package var deviceId: String
    /// Where its pushes go; the token is a secret: never log it in full.
    package var address: DeliveryAddress
    package var createdAt: Date
    package var updatedAt: Date
    /// When a push was last delivered to it (read by `registrations(ofAccount:)`; a save keeps it
    /// unless the registration moves to another account).
    package var lastDeliveryAt: Date?
    /// The outcome of its last finished try (`LastOutcome`), read like `lastDeliveryAt`.
    package var lastOutcome: String?

    package init(id: String, account: String, deviceId: String, address: DeliveryAddress, createdAt: Date, updatedAt: Date) {
        self.id = id
        self.account = account
        self.deviceId = deviceId
        self.address = address
        self.createdAt = createdAt
        self.updatedAt = updatedAt
    }

    /// Whether `other` is this device's token of the same platform and app: a device holds one
    /// per platform and app, so saving this registration replaces it (a rotated token). The SQL
    /// stores' `saveRegistration` deletes the same rows.
    package func replaces(_ other: Registration) -> Bool {
        other.id != id && other.account == account && other.deviceId == deviceId
            && other.address.platform == address.platform && other.address.appId == address.appId
    }
}

/// What recipient resolution and call routing need of a registration (no token, no keys).
package struct Recipient: Sendable, Hashable {
    package var registrationId: String
    package var account: String
    package var deviceId: String
    package var platform: Platform
}

/// A notification as stored once for all its deliveries.
package struct NotificationRecord: Sendable, Equatable {
    /// The public id (`x-any-id`, the Notify answer's `id`).
    package var id: String
    package var kind: NotifyKind
    package var keyId: String?
    package var payload: [UInt8]?
    package var signature: [UInt8]?
    package var groupId: String?
    package var createdAt: Date
    /// `createdAt + ttl`: no delivery is attempted after it.
    package var expiresAt: Date

    package init(id: String, kind: NotifyKind, keyId: String? = nil, payload: [UInt8]? = nil, signature: [UInt8]? = nil,
                groupId: String? = nil, createdAt: Date, expiresAt: Date) {
        self.id = id
        self.kind = kind
        self.keyId = keyId
        self.payload = payload
        self.signature = signature
        self.groupId = groupId
        self.createdAt = createdAt
        self.expiresAt = expiresAt
    }
}

/// One delivery to queue: a registration through its provider.
package struct Delivery: Sendable, Hashable {
    package var registrationId: String
    package var provider: Provider

    package init(registrationId: String, provider: Provider) {
        self.registrationId = registrationId
        self.provider = provider
    }
}

/// The answer of `NotificationStore.enqueue`.
package enum EnqueueOutcome: Sendable, Equatable {
    /// Stored; the notification's id.
    case accepted(String)
    /// Already accepted within the window: the first notification's id; nothing was written.
    case duplicate(String)
}

/// One device of one account: what call routing and `replaces` work on (PROTOCOL §4.1).
package struct DeviceRef: Sendable, Hashable {
    package var account: String
    package var deviceId: String
}

/// What a Notify with `replaces` withdraws in the transaction that accepts it: the caller's
/// deliveries of earlier notifications with `groupId` to any registration of `devices` that are
/// still in the outbox — queued, waiting for a retry, or claimed (a claimed one whose send has
/// begun finishes that once, but is never tried again).
package struct Supersession: Sendable, Equatable {
    package var groupId: String
    package var devices: Set<DeviceRef>
}

/// The answer of `NotificationStore.enqueue`: the outcome, how many deliveries were queued, and how many
/// earlier ones the Notify withdrew (`replaces`). Both counts are 0 for a duplicate.
package struct EnqueueResult: Sendable, Equatable {
    package var outcome: EnqueueOutcome
    package var queued: Int
    package var superseded: Int

    package init(_ outcome: EnqueueOutcome, queued: Int = 0, superseded: Int = 0) {
        self.outcome = outcome
        self.queued = queued
        self.superseded = superseded
    }
}
