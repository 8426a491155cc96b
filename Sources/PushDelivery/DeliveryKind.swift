import PushProtocol

/// What a delivery is for; it picks priority, push type and the `x-any-type` data key.
package enum DeliveryKind: String, Sendable, Codable, CaseIterable, Hashable {
    /// A new message: shown to the user, high priority.
    case message
    /// A wake-up that is never shown (e.g. "read on another device"), low priority.
    case silent
    /// A call ring: high priority, never delivered after its ring window.
    case call

    /// The value of the `x-any-type` data key (PROTOCOL §5): the any apps know `normal`,
    /// not `message`; a call keeps `call` even where it is shown as an alert.
    package var dataType: String {
        switch self {
        case .message: return "normal"
        case .silent: return "silent"
        case .call: return "call"
        }
    }

    /// Whether the provider should wake the device at once (FCM HIGH, APNs 10, `Urgency: high`).
    package var isUrgent: Bool { self != .silent }

    /// Whether a pending push of this kind may be replaced by a newer one of the same group
    /// (FCM `collapse_key`, `apns-collapse-id`, Web Push `Topic`).
    ///
    /// Only messages collapse: a silent "read" or a call ring that shared a message's collapse
    /// key would replace the message's still-undelivered notification, and a ring must not be
    /// swallowed by a later message.
    package var collapses: Bool { self == .message }

    /// The platforms among one device's registrations that receive a push of this kind
    /// (PROTOCOL §4 "Call routing per device").
    ///
    /// `apns_voip` receives calls only; a device with an `apns_voip` registration rings there
    /// and its `apns`/`ios` registrations are skipped for the call; `android` and `webpush`
    /// always receive; without `apns_voip` an iOS device gets the call as an ordinary alert.
    package func platforms(reaching registered: Set<Platform>) -> Set<Platform> {
        switch self {
        case .message, .silent:
            return registered.subtracting([.apnsVoip])
        case .call:
            return registered.contains(.apnsVoip) ? registered.subtracting([.apns, .ios]) : registered
        }
    }
}
