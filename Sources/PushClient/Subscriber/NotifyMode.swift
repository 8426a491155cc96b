/// Who gets notified (any's `notifyMode`): everything, only mentions, or nothing.
public enum NotifyMode: String, Sendable, Codable, CaseIterable, Hashable {
    case all, mentions, none

    /// any's rule: `chat.notifyMode ?? space.notifyMode ?? "all"`.
    public static func resolve(chat: NotifyMode?, space: NotifyMode?) -> NotifyMode { chat ?? space ?? .all }
}

/// One chat of a space and its per-chat override (`nil`: follows the space default).
public struct ChatNotifySetting: Sendable, Hashable, Codable {
    public var chatId: String
    public var mode: NotifyMode?

    public init(chatId: String, mode: NotifyMode? = nil) {
        self.chatId = chatId
        self.mode = mode
    }
}

/// The chats of a space as one reconcile pass saw them.
public enum ChatListing: Sendable, Equatable {
    case listed([ChatNotifySetting])
    /// The chats could not be enumerated this time.
    case unavailable
}

/// A space's notify settings as the planner sees them.
public struct SpaceNotifyState: Sendable, Equatable {
    /// base58 space push public key.
    public var spaceKey: String
    /// The space default (`nil`: unset, meaning `all`).
    public var mode: NotifyMode?
    public var chats: ChatListing

    public init(spaceKey: String, mode: NotifyMode? = nil, chats: ChatListing) {
        self.spaceKey = spaceKey
        self.mode = mode
        self.chats = chats
    }
}
