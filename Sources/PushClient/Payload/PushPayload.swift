/// The plaintext of a sealed push (Spec/any-compat.md "Payload JSON"), byte-compatible with the
/// any and Anytype senders: keys in this order,
///
/// ```json
/// {"spaceId","spaceUxType","spaceType","senderId","type",
///  "newMessage":{"chatId","msgId","spaceName","chatName","senderName","text","hasAttachments","attachments":[{"layout"}]}}
/// ```
///
/// `spaceId`, `spaceUxType` and `spaceType` are always written (the iOS app decodes `spaceUxType`
/// and `spaceId` as required); `attachments` is `[]` when empty, never `null`. Decoding is lenient:
/// older senders omit the space fields (they default to `""`/`0`).
public struct PushPayload: Sendable, Equatable {
    /// `type` of a new chat message: the only loud payload any/Anytype define.
    public static let chatMessage = 1
    /// `type` of a read marker: the sealed message of `chatRead`'s silent notify (Go's zero value,
    /// not a loud type — any/Anytype show only `type: 1`), naming the chat that was read.
    public static let chatRead = 0
    /// `type` of a call ring (a pushnode addition; `newMessage` names the call's chat and message).
    public static let callRing = 2

    public var spaceId: String
    public var spaceUxType: Int
    public var spaceType: Int
    /// The sender's account id; receivers verify the payload signature against it.
    public var senderId: String
    public var type: Int
    public var newMessage: NewMessage?

    public init(spaceId: String, spaceUxType: Int = 0, spaceType: Int = 0, senderId: String,
                type: Int = PushPayload.chatMessage, newMessage: NewMessage?) {
        self.spaceId = spaceId
        self.spaceUxType = spaceUxType
        self.spaceType = spaceType
        self.senderId = senderId
        self.type = type
        self.newMessage = newMessage
    }

    /// The renderable preview of a message.
    public struct NewMessage: Sendable, Equatable {
        public var chatId: String
        public var msgId: String
        public var spaceName: String
        public var chatName: String
        public var senderName: String
        /// At most `PushText.maxScalars` Unicode scalars, `...` appended when cut.
        public var text: String
        public var hasAttachments: Bool
        public var attachments: [Attachment]

        public init(chatId: String, msgId: String, spaceName: String = "", chatName: String = "",
                    senderName: String = "", text: String = "", hasAttachments: Bool = false,
                    attachments: [Attachment] = []) {
            self.chatId = chatId
            self.msgId = msgId
            self.spaceName = spaceName
            self.chatName = chatName
            self.senderName = senderName
            self.text = text
            self.hasAttachments = hasAttachments
            self.attachments = attachments
        }
    }

    /// One attachment stub: the object layout (heart's `resolvedLayout`; 0 when unknown).
    public struct Attachment: Sendable, Equatable, Codable {
        public var layout: Int
        public init(layout: Int = 0) { self.layout = layout }
    }
}

extension PushPayload {
    /// The JSON bytes, written like Go's `json.Marshal` of the any/Anytype struct.
    public func jsonBytes() -> [UInt8] {
        var w = GoJSONWriter()
        w.beginObject()
        w.key("spaceId"); w.string(spaceId)
        w.key("spaceUxType"); w.int(spaceUxType)
        w.key("spaceType"); w.int(spaceType)
        w.key("senderId"); w.string(senderId)
        w.key("type"); w.int(type)
        if let m = newMessage {
            w.key("newMessage")
            w.beginObject()
            w.key("chatId"); w.string(m.chatId)
            w.key("msgId"); w.string(m.msgId)
            w.key("spaceName"); w.string(m.spaceName)
            w.key("chatName"); w.string(m.chatName)
            w.key("senderName"); w.string(m.senderName)
            w.key("text"); w.string(m.text)
            w.key("hasAttachments"); w.bool(m.hasAttachments)
            w.key("attachments")
            w.beginArray()
            for a in m.attachments {
                w.beginObject()
                w.key("layout"); w.int(a.layout)
                w.endObject()
            }
            w.endArray()
            w.endObject()
        }
        w.endObject()
        return w.bytes
    }
}

extension PushPayload: Decodable {
    private enum Keys: String, CodingKey {
        case spaceId, spaceUxType, spaceType, senderId, type, newMessage
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        spaceId = try c.decodeIfPresent(String.self, forKey: .spaceId) ?? ""
        spaceUxType = try c.decodeIfPresent(Int.self, forKey: .spaceUxType) ?? 0
        spaceType = try c.decodeIfPresent(Int.self, forKey: .spaceType) ?? 0
        senderId = try c.decode(String.self, forKey: .senderId)
        type = try c.decodeIfPresent(Int.self, forKey: .type) ?? 0
        newMessage = try c.decodeIfPresent(NewMessage.self, forKey: .newMessage)
    }
}

extension PushPayload.NewMessage: Decodable {
    private enum Keys: String, CodingKey {
        case chatId, msgId, spaceName, chatName, senderName, text, hasAttachments, attachments
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        chatId = try c.decodeIfPresent(String.self, forKey: .chatId) ?? ""
        msgId = try c.decodeIfPresent(String.self, forKey: .msgId) ?? ""
        spaceName = try c.decodeIfPresent(String.self, forKey: .spaceName) ?? ""
        chatName = try c.decodeIfPresent(String.self, forKey: .chatName) ?? ""
        senderName = try c.decodeIfPresent(String.self, forKey: .senderName) ?? ""
        text = try c.decodeIfPresent(String.self, forKey: .text) ?? ""
        hasAttachments = try c.decodeIfPresent(Bool.self, forKey: .hasAttachments) ?? false
        attachments = try c.decodeIfPresent([PushPayload.Attachment].self, forKey: .attachments) ?? []
    }
}
