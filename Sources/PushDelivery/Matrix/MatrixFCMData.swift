/// The FCM `data` of a Matrix push: the keys sygnal's FCM v1 pushkin sends, which the Matrix
/// Android apps (Element, FluffyChat, SchildiChat, …) read (Spec/matrix.md "FCM").
///
/// The pusher's `default_payload` members first, then the event's fields (each string cut to
/// `fieldLimit` bytes with `…`), the string members of `content` as `content_<key>`, `prio`
/// (`high` or `normal`) and the counts as decimal strings. Unlike sygnal, absent fields are left
/// out rather than sent as `null` (FCM's `data` is a map of strings), and a non-string
/// `default_payload` member is sent as its JSON text for the same reason.
package enum MatrixFCMData {
    /// sygnal's `MAX_BYTES_PER_FIELD`.
    package static let fieldLimit = 1024

    package static func pairs(for push: MatrixPush) -> [(String, String)] {
        var data: [(String, String)] = []
        func set(_ key: String, _ value: String) {
            if let at = data.firstIndex(where: { $0.0 == key }) { data[at].1 = value } else { data.append((key, value)) }
        }
        for (key, value) in push.defaultPayload?.members ?? [] {
            set(key, value.text ?? String(decoding: value.bytes, as: UTF8.self))
        }
        let fields: [(String, String?)] = [
            ("event_id", push.eventId), ("type", push.type), ("sender", push.sender), ("room_name", push.roomName),
            ("room_alias", push.roomAlias), ("membership", push.membership),
            ("sender_display_name", push.senderDisplayName),
        ]
        for case (let key, let value?) in fields { set(key, truncated(value)) }
        for case (let key, .string(let value)) in push.content?.members ?? [] { set("content_" + key, truncated(value)) }
        if let room = push.roomId { set("room_id", truncated(room)) }
        set("prio", push.prio == .low ? "normal" : "high")
        if let unread = push.unread { set("unread", String(unread)) }
        if let missed = push.missedCalls { set("missed_calls", String(missed)) }
        return data
    }

    /// `text` cut to at most `limit` UTF-8 bytes, ending in `…` when cut, never inside a character.
    package static func truncated(_ text: String, limit: Int = fieldLimit) -> String {
        guard text.utf8.count > limit else { return text }
        var kept = ""
        var bytes = 0
        for character in text {
            let size = character.utf8.count
            guard bytes + size <= limit - 3 else { break }
            kept.append(character)
            bytes += size
        }
        return kept + "…"
    }
}
