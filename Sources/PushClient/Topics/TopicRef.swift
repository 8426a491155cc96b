/// One subscription as the node holds it: a topic within a space (`spaceKey` = base58 space push key).
public struct TopicRef: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var spaceKey: String
    public var topic: String

    public init(spaceKey: String, topic: String) {
        self.spaceKey = spaceKey
        self.topic = topic
    }

    public static func < (a: TopicRef, b: TopicRef) -> Bool {
        (a.spaceKey, a.topic) < (b.spaceKey, b.topic)
    }

    /// The reference node's storage form, `spaceKey/topic`.
    public var description: String { "\(spaceKey)/\(topic)" }
}
