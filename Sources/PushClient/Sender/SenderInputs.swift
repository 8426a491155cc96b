/// A space as the sender needs it: the ids and names the payload carries, and its two keys.
public struct PushSpace: Sendable {
    /// The space id written into the payload (`spaceId`).
    public var spaceId: String
    /// The space name shown in the notification (`spaceName`).
    public var name: String
    /// heart's `SpaceUxType` enum (4 = one-to-one), always written.
    public var uxType: Int
    /// heart's `SpaceType` enum (4 = one-to-one), always written.
    public var type: Int
    /// The space push key: signs the topics.
    public var signer: any TopicSigner
    /// The current payload key: seals the payload.
    public var sealer: any PayloadSealer

    public init(spaceId: String, name: String = "", uxType: Int = 0, type: Int = 0,
                signer: any TopicSigner, sealer: any PayloadSealer) {
        self.spaceId = spaceId
        self.name = name
        self.uxType = uxType
        self.type = type
        self.signer = signer
        self.sealer = sealer
    }

    /// An any space on its two keys (`PushSpaceKeys.derive(firstMetadataKey:readKey:)`).
    public init(spaceId: String, name: String = "", uxType: Int = 0, type: Int = 0, keys: PushSpaceKeys) {
        self.init(spaceId: spaceId, name: name, uxType: uxType, type: type, signer: keys.pushKey, sealer: keys.payloadKey)
    }
}

/// A chat object: its id (hashed into topics and `groupId`) and display name.
public struct PushChat: Sendable, Equatable {
    public var id: String
    public var name: String

    public init(id: String, name: String = "") {
        self.id = id
        self.name = name
    }
}

/// The message a push announces.
public struct OutgoingMessage: Sendable, Equatable {
    public var id: String
    /// The full text; the payload carries at most 1024 scalars of it.
    public var text: String
    public var senderName: String
    public var attachments: [PushPayload.Attachment]

    public init(id: String, text: String, senderName: String = "", attachments: [PushPayload.Attachment] = []) {
        self.id = id
        self.text = text
        self.senderName = senderName
        self.attachments = attachments
    }
}
