import PushProtocol

/// What a delivery is for is the Notify's kind (`message`: shown, high priority; `silent`: never
/// shown, low priority; `call`: high priority, never delivered after its ring window; `clear`:
/// never shown, high priority). The kind picks priority, push type and the `x-any-type` data key.
extension NotifyKind {

    /// The value of the `x-any-type` data key (PROTOCOL §5): the any apps know `normal`,
    /// not `message`; a call keeps `call` even where it is shown as an alert.
    package var dataType: String {
        switch self {
        case .message: return "normal"
        case .silent: return "silent"
        case .call: return "call"
        case .clear: return "clear"
        }
    }

    /// Whether the provider should wake the device at once (FCM HIGH, APNs 10, `Urgency: high`).
    /// A clear is urgent too (a ring must stop now), though APNs takes background pushes at
    /// priority 5 only.
    package var isUrgent: Bool { self != .silent }

    /// Whether a pending push of this kind may be replaced by a newer one of the same group
    /// (FCM `collapse_key`, `apns-collapse-id`, Web Push `Topic`).
    ///
    /// Only messages collapse: a silent "read" or a call ring that shared a message's collapse
    /// key would replace the message's still-undelivered notification, and a ring must not be
    /// swallowed by a later message. A clear replaces in the node's outbox instead (`replaces`),
    /// where it cannot take the place of a message the device should still show.
    package var collapses: Bool { self == .message }
}
