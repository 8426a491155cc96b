/// The APNs payload of a Matrix push, built as sygnal's APNs pushkin builds it, which the Matrix
/// iOS apps read (Spec/matrix.md "APNs").
///
/// - An event the homeserver sent as ids only (an `event_id` and no `type`: the pusher's
///   `format: event_id_only`, or `matrix.forwardContent: false`): the pusher's `default_payload`
///   with `room_id`, `event_id`, `unread_count` and `missed_calls` added at the top level.
/// - A full event: `aps.alert` with the localisation key and arguments for its type
///   (`MatrixAlertText`), `aps.badge` = unread + missed calls, and `room_id`, `event_id` beside
///   `aps`; the `default_payload` is the starting point.
/// - A badge-only update (no event): `{"aps": {"badge": n}}`.
/// Nil when there is nothing to show and no badge: nothing is sent.
package enum MatrixAPNsPayload {
    /// sygnal's `MAX_FIELD_LENGTH`: the most characters of a name or body in `loc-args`.
    package static let fieldLimit = 1024

    package static func payload(for push: MatrixPush) -> JSONValue? {
        if let eventId = push.eventId, !eventId.isEmpty, push.type == nil {
            var members = push.defaultPayload?.members ?? []
            if let room = push.roomId { set(&members, "room_id", .string(room)) }
            set(&members, "event_id", .string(eventId))
            if let unread = push.unread { set(&members, "unread_count", .int(unread)) }
            if let missed = push.missedCalls { set(&members, "missed_calls", .int(missed)) }
            return .object(members)
        }
        let alert = MatrixAlertText(push: push, fieldLimit: fieldLimit)
        var badge: Int?
        if let unread = push.unread { badge = unread }
        if let missed = push.missedCalls { badge = (badge ?? 0) + missed }
        guard alert.locKey != nil || badge != nil else { return nil }

        var members = push.type != nil ? (push.defaultPayload?.members ?? []) : []
        var aps = members.first { $0.0 == "aps" }?.1.members ?? []
        if let key = alert.locKey {
            var alertMembers = aps.first { $0.0 == "alert" }?.1.members ?? []
            set(&alertMembers, "loc-key", .string(key))
            if !alert.locArgs.isEmpty { set(&alertMembers, "loc-args", .array(alert.locArgs.map(JSONValue.string))) }
            set(&aps, "alert", .object(alertMembers))
        }
        if let badge { set(&aps, "badge", .int(badge)) }
        set(&members, "aps", .object(aps))
        if alert.locKey != nil {
            if let room = push.roomId { set(&members, "room_id", .string(room)) }
            if let event = push.eventId, !event.isEmpty { set(&members, "event_id", .string(event)) }
        }
        return .object(members)
    }

    /// Replaces the member `key`, or appends it.
    static func set(_ members: inout [(String, JSONValue)], _ key: String, _ value: JSONValue) {
        if let at = members.firstIndex(where: { $0.0 == key }) { members[at].1 = value } else { members.append((key, value)) }
    }
}
