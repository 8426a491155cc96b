/// The localisation key and arguments of a Matrix event's alert, as sygnal chooses them and the
/// Matrix iOS apps translate them (`MSG_FROM_USER_IN_ROOM_WITH_CONTENT`, `VOICE_CALL_FROM_USER`,
/// `USER_INVITE_TO_NAMED_ROOM`, …). Names and bodies are cut to `fieldLimit` characters.
struct MatrixAlertText {
    private(set) var locKey: String?
    private(set) var locArgs: [String] = []

    init(push: MatrixPush, fieldLimit: Int) {
        func cut(_ text: String) -> String { String(text.prefix(fieldLimit)) }
        let from: String
        if let display = push.senderDisplayName {
            from = cut(display)
        } else if let sender = push.sender, !sender.isEmpty {
            from = cut(sender)
        } else {
            from = " "
        }
        let room = (push.roomName ?? push.roomAlias).map(cut)
        let content = push.content?.members ?? []
        func member(_ key: String) -> JSONValue? { content.first { $0.0 == key }?.1 }

        switch push.type {
        case "m.room.message", "m.room.encrypted":
            var body: String?
            var action: String?
            var isImage = false
            if let msgtype = member("msgtype")?.text, let text = member("body")?.text {
                if msgtype == "m.emote" { action = text } else { body = text }
                isImage = msgtype == "m.image"
            }
            body = body.map(cut)
            action = action.map(cut)
            if let room {
                if isImage {
                    (locKey, locArgs) = ("IMAGE_FROM_USER_IN_ROOM", [from, body ?? "", room])
                } else if let body {
                    (locKey, locArgs) = ("MSG_FROM_USER_IN_ROOM_WITH_CONTENT", [from, room, body])
                } else if let action {
                    (locKey, locArgs) = ("ACTION_FROM_USER_IN_ROOM", [room, from, action])
                } else {
                    (locKey, locArgs) = ("MSG_FROM_USER_IN_ROOM", [from, room])
                }
            } else if isImage {
                (locKey, locArgs) = ("IMAGE_FROM_USER", [from, body ?? ""])
            } else if let body {
                (locKey, locArgs) = ("MSG_FROM_USER_WITH_CONTENT", [from, body])
            } else if let action {
                (locKey, locArgs) = ("ACTION_FROM_USER", [from, action])
            } else {
                (locKey, locArgs) = ("MSG_FROM_USER", [from])
            }
        case "m.call.invite":
            let sdp = member("offer")?.members?.first { $0.0 == "sdp" }?.1.text ?? ""
            (locKey, locArgs) = (sdp.contains("m=video") ? "VIDEO_CALL_FROM_USER" : "VOICE_CALL_FROM_USER", [from])
        case "m.room.member":
            guard push.userIsTarget == true, push.membership == "invite" else { break }
            if let room {
                (locKey, locArgs) = ("USER_INVITE_TO_NAMED_ROOM", [from, room])
            } else {
                (locKey, locArgs) = ("USER_INVITE_TO_CHAT", [from])
            }
        case .some:
            (locKey, locArgs) = ("MSG_FROM_USER", [from])
        case nil:
            break
        }
    }
}
