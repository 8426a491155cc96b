import Foundation
import PushClient
import PushCrypto

/// `pushnode client subscribe` and `pushnode client subscriptions` (`--account FILE [--node URL]`).
enum ClientSubscribeCommands {
    /// `subscribe (--space FILE | --space-metadata-key HEX) (--topic T … | --mode all|mentions|none [--chat ID[=MODE]]…)`.
    ///
    /// `--topic` adds those topics. `--mode` makes the space's topics exactly what the notifyMode
    /// rules of Spec/any-compat.md give (`SubscriptionPlan.spaceTopics`; `--chat` lists the
    /// space's chats, with an optional per-chat override): the space's other topics are removed,
    /// other spaces' are left alone. Prints `{"spaceKey", "topics", "count"}` (`count`: the
    /// account's total).
    static func subscribe(_ args: Arguments) throws {
        let context = try ClientContext(args)
        let space = try ClientContext.spacePushKey(args)
        let topics = args.values("topic")
        let subscriber = context.subscriber
        let me = context.accountID
        let result: (topics: [String], count: Int)
        if let modeText = args.options["mode"] {
            guard topics.isEmpty else { throw CLIError("give --topic or --mode, not both") }
            let mode = try parseMode(modeText, "--mode")
            let chats = try args.values("chat").map(parseChat)
            let desired = SubscriptionPlan.spaceTopics(me: me, spaceMode: mode, chats: chats)
            result = try context.call {
                let held = try await subscriber.subscriptions().filter { $0.spaceKey.string == space.spaceKey }.map(\.topic)
                let stale = held.filter { !desired.contains($0) }
                var count = -1
                if !stale.isEmpty { count = try await subscriber.unsubscribe(stale, in: space) }
                if !desired.isEmpty { count = try await subscriber.subscribe(desired, in: space) }
                if count < 0 { count = try await subscriber.subscriptions().count }
                return (desired, count)
            }
        } else {
            guard !topics.isEmpty else { throw CLIError("give --topic T (repeatable) or --mode all|mentions|none") }
            let count = try context.call { try await subscriber.subscribe(topics, in: space) }
            result = (topics, count)
        }
        Output.json(["spaceKey": space.spaceKey, "topics": result.topics.sorted(), "count": result.count])
    }

    /// `subscriptions`: `{"topics": [{"spaceKey", "topic"}]}`, the node's set for the account.
    static func list(_ args: Arguments) throws {
        let context = try ClientContext(args)
        let subscriber = context.subscriber
        let topics = try context.call { try await subscriber.subscriptions() }
        Output.json(["topics": topics.map { ["spaceKey": $0.spaceKey.string, "topic": $0.topic] }])
    }

    static func parseMode(_ text: String, _ what: String) throws -> NotifyMode {
        guard let mode = NotifyMode(rawValue: text) else { throw CLIError("\(what) must be all, mentions or none") }
        return mode
    }

    /// `ID` (follows the space) or `ID=MODE` (a per-chat override).
    static func parseChat(_ text: String) throws -> ChatNotifySetting {
        guard let eq = text.lastIndex(of: "=") else { return ChatNotifySetting(chatId: text) }
        return ChatNotifySetting(chatId: String(text[..<eq]),
                                 mode: try parseMode(String(text[text.index(after: eq)...]), "--chat \(text)"))
    }
}
