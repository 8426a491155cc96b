/// One Matrix Push Gateway notification for one device, as the Matrix door keeps it in the
/// outbox (Spec/matrix.md): the notification, less what `matrix.forwardContent: false` keeps out,
/// and the device's pusher settings. The pushkey itself is the registration's token. Its
/// notification's members read as its own (`push.eventId`).
///
/// It is stored as this type's JSON in the notification's `payload` column, with `storageTag` in
/// its `keyId` column: a sealed pushnode message always has a 64-hex `keyId`, so the two never
/// meet.
@dynamicMemberLookup
package struct MatrixPush: Sendable, Equatable, Codable {
    /// The `keyId` of a stored Matrix push.
    package static let storageTag = "matrix/1"

    /// `prio`: `high` unless the homeserver said `low` (any other string reads as `high`).
    package enum Priority: String, Sendable, Codable {
        case high, low

        package init(from decoder: any Decoder) throws {
            self = try decoder.singleValueContainer().decode(String.self) == "low" ? .low : .high
        }
    }

    package var notification: MatrixNotification
    /// The pusher's `app_id`, as the homeserver sent it.
    package var appId: String
    package var pushkeyTs: Int?
    /// The pusher's `data` (`format`, `default_payload`, …), as the homeserver sent it.
    package var data: JSONValue?
    package var tweaks: JSONValue?

    package init(_ notification: MatrixNotification = MatrixNotification(), appId: String, pushkeyTs: Int? = nil,
                 data: JSONValue? = nil, tweaks: JSONValue? = nil) {
        self.notification = notification
        self.appId = appId
        self.pushkeyTs = pushkeyTs
        self.data = data
        self.tweaks = tweaks
    }

    enum CodingKeys: String, CodingKey {
        case notification, appId = "app_id", pushkeyTs = "pushkey_ts", data, tweaks
    }

    package subscript<Value>(dynamicMember member: KeyPath<MatrixNotification, Value>) -> Value {
        notification[keyPath: member]
    }

    /// `prio`, `high` when the homeserver gave none.
    package var prio: Priority { notification.prio ?? .high }

    /// What is left when content may not be forwarded: the ids, the counts, `prio` and the
    /// pusher's own settings (which the app set, not the sender).
    package var withoutContent: MatrixPush {
        let kept = MatrixNotification(eventId: notification.eventId, roomId: notification.roomId, prio: notification.prio,
                                      counts: notification.counts)
        return MatrixPush(kept, appId: appId, pushkeyTs: pushkeyTs, data: data, tweaks: tweaks)
    }

    /// The pusher's `data.default_payload`, when it is there.
    package var defaultPayload: JSONValue? {
        data?.members?.first { $0.0 == "default_payload" }?.1
    }

    /// Whether the homeserver sent only a badge (no event): Synapse's unread-count updates.
    package var isBadgeOnly: Bool { notification.eventId?.isEmpty != false }
}
