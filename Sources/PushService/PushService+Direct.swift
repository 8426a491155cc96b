import Foundation
import PushProtocol
import PushStore

/// A push a door addresses to one device it names itself (the Matrix door's pushkeys), rather
/// than to the subscribers of topics: the device is kept as a registration of the door's own
/// account, and the push goes into the same outbox as a Notify's, with the same retries, expiry
/// and outcomes.
package struct DirectPush: Sendable {
    /// The door's id for the device; stable for the same device, never one the API derives.
    package var registrationId: String
    /// Where the push goes (the token: FCM token, hex APNs token, endpoint URL).
    package var address: DeliveryAddress
    package var notification: NotificationRecord
    /// Makes a door's retry of the same push a duplicate (nothing is queued twice).
    package var key: IdempotencyKey?

    package init(registrationId: String, address: DeliveryAddress, notification: NotificationRecord, key: IdempotencyKey?) {
        self.registrationId = registrationId
        self.address = address
        self.notification = notification
        self.key = key
    }
}

/// What the Web Push endpoint rules say of a device a door names (`PushService.endpointVerdict`).
package enum EndpointVerdict: Sendable, Equatable {
    case allowed
    /// Never acceptable: not an https URL, or a host that is private or does not resolve.
    case refused
    /// Not known now (the host's lookup did not finish in time).
    case undecided
}

extension PushService {
    /// The registration rules for a Web Push endpoint (PROTOCOL §3), as a verdict.
    package func endpointVerdict(_ endpoint: String) -> EndpointVerdict {
        switch tokenRules.endpointPolicy.verdict(endpoint) {
        case .allowed: .allowed
        case .refused: .refused
        case .undecided: .undecided
        }
    }

    /// Queues `push` for its device as `caller` (a door's account): the registration is written
    /// first when it is new (an existing one keeps its `updatedAt`, so a dead answer still prunes
    /// it), then the notification and its one delivery in one transaction. Returns false for a
    /// duplicate of a push queued within the idempotency window.
    package func queueDirect(_ push: DirectPush, caller: String) throws(ServiceError) -> Bool {
        let now = clock()
        let known = try stored(.read) { try registry.registration(id: push.registrationId) }
        if known == nil {
            let registration = Registration(id: push.registrationId, account: caller, deviceId: push.registrationId,
                                            address: push.address, createdAt: now, updatedAt: now)
            _ = try stored(.write) { try registry.saveRegistration(registration) }
        }
        let provider = push.address.platform.provider
        let result = try stored(.write) {
            try notifications.enqueue(push.notification, deliveries: [Delivery(registrationId: push.registrationId, provider: provider)],
                                      superseding: nil, caller: caller, key: push.key,
                                      duplicateSince: now.addingTimeInterval(-Self.idempotencyWindow))
        }
        guard case .accepted = result.outcome else { return false }
        configuration.deliveriesQueued?([provider])
        return true
    }

    /// Whether the node has credentials of `app` for `platform` (`default` is the top-level
    /// sections): a push it could never send is not queued.
    package func sends(_ platform: Platform, app: String) -> Bool {
        tokenRules.appPlatforms[app]?.contains(platform) == true
    }

    /// A fresh notification id (random, 32 hex digits), as Notify makes them.
    package static func directNotificationID() -> String { newNotificationID() }
}
