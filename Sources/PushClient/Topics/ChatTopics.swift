import PushCrypto

/// The any topic vocabulary for chats (Spec/any-compat.md "Topics a sender publishes on a chat
/// write"):
///
/// ```
/// chats                              space-wide "all messages"
/// chats/<sha256hex(chatId)>          per-chat "all messages"
/// chats/<sha256hex(chatId)>/<id>     per-chat mention of identity <id>
/// <id>                               bare identity (bulk mentions, silent reads)
/// ```
public enum ChatTopics {
    /// The space-wide topic.
    public static let chats = "chats"

    /// `sha256hex(chatId)`: the per-chat topic component and the collapse key (`groupId`).
    public static func groupId(chatId: String) -> String { SHA256.hex(Array(chatId.utf8)) }

    /// `chats/<sha256hex(chatId)>`.
    public static func chat(_ chatId: String) -> String { "\(chats)/\(groupId(chatId: chatId))" }

    /// `chats/<sha256hex(chatId)>/<identity>`.
    public static func mention(chatId: String, identity: String) -> String { "\(chat(chatId))/\(identity)" }

    /// The superset a new message publishes: `chats`, `chats/<sha>`, then per mention
    /// `chats/<sha>/<id>` and `<id>`. Repeated mentions appear once.
    public static func message(chatId: String, mentions: [String]) -> [String] {
        [chats, chat(chatId)] + mentionTopics(chatId: chatId, identities: mentions)
    }

    /// An edit publishes only the mention topics of newly added mentions, never the room-wide ones.
    public static func edit(chatId: String, newMentions: [String]) -> [String] {
        mentionTopics(chatId: chatId, identities: newMentions)
    }

    /// The topic of a read: the reader's own identity (sent silently, waking its other devices).
    public static func read(identity: String) -> [String] { [identity] }

    /// Per identity, `chats/<sha>/<id>` then `<id>`; identities deduplicated in order.
    public static func mentionTopics(chatId: String, identities: [String]) -> [String] {
        var seen = Set<String>()
        var topics: [String] = []
        for identity in identities where !identity.isEmpty && seen.insert(identity).inserted {
            topics.append(mention(chatId: chatId, identity: identity))
            topics.append(identity)
        }
        return topics
    }

    /// The identities in `after` that are not in `before`, in `after`'s order: what an edit notifies.
    public static func addedMentions(before: [String], after: [String]) -> [String] {
        let old = Set(before)
        var seen = Set<String>()
        return after.filter { !old.contains($0) && seen.insert($0).inserted }
    }
}
