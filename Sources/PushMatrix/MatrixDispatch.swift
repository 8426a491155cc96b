import Foundation
import PushCrypto
import PushDelivery
import PushProtocol
import PushService
import PushStore

/// What the door does with each device of a request, decided without I/O (Spec/matrix.md
/// "Devices"): reject the pushkey, skip it (nothing to send), or queue a push for it.
package enum MatrixDispatch {
    /// The account the door's devices are kept under; never an account id (those are base58).
    package static let account = "matrix-gateway"
    /// How long a push to a device is tried: a day for an event, an hour for a badge update.
    package static let eventTTL: TimeInterval = 86_400
    package static let badgeTTL: TimeInterval = 3_600

    package enum Decision: Sendable {
        /// The homeserver should delete this pusher: its `app_id` maps to nothing, or its pushkey
        /// is not one of its platform's.
        case reject(pushkey: String)
        /// Nothing to send (an APNs push with neither alert nor badge, as sygnal decides).
        case skip
        case queue(pushkey: String, DirectPush)
    }

    package static func decisions(for request: MatrixNotifyRequest, configuration: MatrixDoorConfiguration,
                                  now: Date, newID: () -> String) -> [Decision] {
        request.devices.map { device in
            decision(for: device, of: request.notification, configuration: configuration, now: now, newID: newID)
        }
    }

    static func decision(for device: MatrixNotifyRequest.Device, of notification: MatrixNotification,
                         configuration: MatrixDoorConfiguration, now: Date, newID: () -> String) -> Decision {
        guard let route = configuration.apps.route(for: device.appId),
              let token = MatrixPushkey.providerToken(device.pushkey, platform: route.platform)
        else { return .reject(pushkey: device.pushkey) }
        var push = MatrixPush(notification, device: device)
        if !configuration.forwardContent { push = push.withoutContent }
        if route.platform == .apns, MatrixAPNsPayload.payload(for: push) == nil { return .skip }

        let registrationId = MatrixPushkey.registrationId(pushkey: device.pushkey, route: route)
        let ttl = push.isBadgeOnly ? badgeTTL : eventTTL
        let record = NotificationRecord(id: newID(), kind: push.prio == .low ? .silent : .message,
                                        keyId: MatrixPush.storageTag, payload: (try? JSON.encode(push)) ?? [],
                                        createdAt: now, expiresAt: now.addingTimeInterval(ttl))
        let key = push.eventId.flatMap { $0.isEmpty ? nil : idempotencyKey(registrationId: registrationId, eventId: $0) }
        let environment = route.platform == .apns ? (route.environment.isEmpty ? "production" : route.environment) : ""
        let address = DeliveryAddress(platform: route.platform, token: token, appId: route.app, environment: environment)
        return .queue(pushkey: device.pushkey, DirectPush(registrationId: registrationId, address: address,
                                                          notification: record, key: key))
    }

    /// One event to one device is queued once, however often the homeserver sends it (a retry
    /// after a lost answer): SHA-256(`"pushnode-matrix-v1" 0x00 registrationId 0x00 eventId`).
    static func idempotencyKey(registrationId: String, eventId: String) -> IdempotencyKey {
        IdempotencyKey(bytes: SHA256.hash(Array("pushnode-matrix-v1\u{0}\(registrationId)\u{0}\(eventId)".utf8)))
    }
}

extension MatrixPush {
    /// The notification for one of its devices. Empty strings, which Synapse sends for a badge
    /// update's `sender`, count as absent, and so does a `null` content.
    init(_ notification: MatrixNotification, device: MatrixNotifyRequest.Device) {
        func present(_ text: String?) -> String? { text?.isEmpty == false ? text : nil }
        var kept = notification
        for member in [\MatrixNotification.eventId, \.roomId, \.type, \.sender, \.senderDisplayName, \.roomName,
                       \.roomAlias, \.membership] {
            kept[keyPath: member] = present(kept[keyPath: member])
        }
        if kept.content == .null { kept.content = nil }
        self.init(kept, appId: device.appId, pushkeyTs: device.pushkeyTs,
                  data: device.data == .null ? nil : device.data, tweaks: device.tweaks == .null ? nil : device.tweaks)
    }
}
