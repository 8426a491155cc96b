/// What a UnifiedPush endpoint receives for a Matrix push: the Push Gateway request itself,
/// narrowed to this one device — `{"notification": {…, "devices": [device]}}` as JSON, in the
/// clear — which is what the UnifiedPush Matrix gateways (common-proxies, ntfy, NextPush) post
/// and what the Matrix UnifiedPush clients parse (Spec/matrix.md "UnifiedPush").
package enum MatrixUnifiedPushBody {
    package static func body(for push: MatrixPush, pushkey: String) -> [UInt8] {
        var notification: [(String, JSONValue)] = []
        let fields: [(String, String?)] = [
            ("event_id", push.eventId), ("room_id", push.roomId), ("type", push.type), ("sender", push.sender),
            ("sender_display_name", push.senderDisplayName), ("room_name", push.roomName),
            ("room_alias", push.roomAlias), ("membership", push.membership),
        ]
        for case (let key, let value?) in fields { notification.append((key, .string(value))) }
        if let target = push.userIsTarget { notification.append(("user_is_target", .bool(target))) }
        notification.append(("prio", .string(push.prio.rawValue)))
        if let content = push.content { notification.append(("content", content)) }
        var counts: [(String, JSONValue)] = []
        if let unread = push.unread { counts.append(("unread", .int(unread))) }
        if let missed = push.missedCalls { counts.append(("missed_calls", .int(missed))) }
        if !counts.isEmpty { notification.append(("counts", .object(counts))) }
        var device: [(String, JSONValue)] = [("app_id", .string(push.appId)), ("pushkey", .string(pushkey))]
        if let stamp = push.pushkeyTs { device.append(("pushkey_ts", .int(stamp))) }
        if let data = push.data { device.append(("data", data)) }
        if let tweaks = push.tweaks { device.append(("tweaks", tweaks)) }
        notification.append(("devices", .array([.object(device)])))
        return JSONValue.object([("notification", .object(notification))]).bytes
    }
}
