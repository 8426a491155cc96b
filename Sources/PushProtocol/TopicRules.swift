/// The shape rules of PROTOCOL §3–§4 for topics, group ids, ttls and ids, as pure checks.
public enum TopicRules {
    /// Largest topic in UTF-8 bytes.
    public static let maxTopicBytes = 256
    /// Largest `groupId` in bytes (printable ASCII).
    public static let maxGroupIdBytes = 64
    /// Largest `ttl` in seconds (28 days).
    public static let maxTTL = 2_419_200

    /// A topic is 1–256 bytes of UTF-8 with no control characters (Unicode category Cc).
    public static func isValidTopic(_ topic: String) -> Bool {
        let count = topic.utf8.count
        guard count >= 1, count <= maxTopicBytes else { return false }
        return !topic.unicodeScalars.contains { $0.properties.generalCategory == .control }
    }

    /// A group id is 1–64 bytes of printable ASCII (0x20–0x7e).
    public static func isValidGroupId(_ groupId: String) -> Bool {
        let bytes = groupId.utf8
        guard bytes.count >= 1, bytes.count <= maxGroupIdBytes else { return false }
        return bytes.allSatisfy { $0 >= 0x20 && $0 <= 0x7e }
    }

    /// A ttl is 1–2,419,200 seconds.
    public static func isValidTTL(_ ttl: Int) -> Bool { ttl >= 1 && ttl <= maxTTL }

    /// A `keyId` is 64 lowercase hex digits (SHA-256 of the payload key).
    public static func isValidKeyId(_ keyId: String) -> Bool {
        let bytes = keyId.utf8
        return bytes.count == 64 && bytes.allSatisfy { ($0 >= 0x30 && $0 <= 0x39) || ($0 >= 0x61 && $0 <= 0x66) }
    }
}
