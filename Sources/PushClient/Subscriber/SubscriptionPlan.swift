import PushProtocol

/// The topic set an account should hold, from its notify modes (Spec/any-compat.md "Subscriber
/// topic set from notifyMode"). Pure.
///
/// Per space, with `me` the account id and `<sha>` = `sha256hex(chatId)`:
/// - no chat overrides the space default → bulk topics: `all` → `chats` + `<me>`;
///   `mentions` → `<me>`; `none` → nothing;
/// - once any chat overrides → per-chat topics for *every* chat of the space (a bulk `chats` would
///   reach a muted chat), each chat with `chat ?? space ?? all`: `all` → `chats/<sha>` +
///   `chats/<sha>/<me>`; `mentions` → `chats/<sha>/<me>`; `none` → nothing;
/// - chats not enumerable → the last-known-good listing of that space; without one, the space is
///   skipped: the topics the node already holds for it are kept as they are. Never bulk topics,
///   which would silently unmute a muted chat.
public enum SubscriptionPlan {
    /// How a space's topics were decided.
    public enum Source: String, Sendable, Equatable {
        case listed
        case lastKnownGood = "last_known_good"
        /// Skipped: the node's current topics for the space kept.
        case keptCurrent = "kept_current"
    }

    public struct Resolution: Sendable, Equatable {
        public var topics: Set<TopicRef>
        /// The listings to remember for the next pass: this pass's successful listings, plus the
        /// previous ones of spaces that could not be listed now (spaces gone from the list dropped).
        public var lastKnownGood: [String: [ChatNotifySetting]]
        /// Per space key, how its topics were decided.
        public var sources: [String: Source]
    }

    /// - Parameters:
    ///   - me: the account id.
    ///   - spaces: every space of the account with its default and chat listing.
    ///   - lastKnownGood: listings remembered from earlier passes, by space key.
    ///   - current: the topics the node holds now (used for skipped spaces).
    public static func desiredTopics(me: String, spaces: [SpaceNotifyState],
                                     lastKnownGood: [String: [ChatNotifySetting]] = [:],
                                     current: Set<TopicRef> = []) -> Resolution {
        var topics = Set<TopicRef>()
        var remembered: [String: [ChatNotifySetting]] = [:]
        var sources: [String: Source] = [:]
        for space in spaces {
            // A key that is not base58 of 32 bytes can hold no topic on a node: nothing to keep.
            guard let key = try? SpaceKey(space.spaceKey) else {
                sources[space.spaceKey] = .keptCurrent
                continue
            }
            let chats: [ChatNotifySetting]
            switch space.chats {
            case .listed(let listed):
                chats = listed
                remembered[space.spaceKey] = listed
                sources[space.spaceKey] = .listed
            case .unavailable:
                if let known = lastKnownGood[space.spaceKey] {
                    chats = known
                    remembered[space.spaceKey] = known
                    sources[space.spaceKey] = .lastKnownGood
                } else {
                    topics.formUnion(current.filter { $0.spaceKey == key })
                    sources[space.spaceKey] = .keptCurrent
                    continue
                }
            }
            for topic in spaceTopics(me: me, spaceMode: space.mode, chats: chats) {
                topics.insert(TopicRef(spaceKey: key, topic: topic))
            }
        }
        return Resolution(topics: topics, lastKnownGood: remembered, sources: sources)
    }

    /// The topics of one space whose chats are known.
    public static func spaceTopics(me: String, spaceMode: NotifyMode?, chats: [ChatNotifySetting]) -> [String] {
        guard chats.contains(where: { $0.mode != nil }) else {
            switch NotifyMode.resolve(chat: nil, space: spaceMode) {
            case .all: return [ChatTopics.chats, me]
            case .mentions: return [me]
            case .none: return []
            }
        }
        var topics: [String] = []
        for chat in chats {
            switch NotifyMode.resolve(chat: chat.mode, space: spaceMode) {
            case .all: topics += [ChatTopics.chat(chat.chatId), ChatTopics.mention(chatId: chat.chatId, identity: me)]
            case .mentions: topics.append(ChatTopics.mention(chatId: chat.chatId, identity: me))
            case .none: break
            }
        }
        return topics
    }
}
