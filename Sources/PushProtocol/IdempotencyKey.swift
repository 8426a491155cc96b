import PushCrypto

/// What makes two Notify requests of one caller "the same" within 24 h (PROTOCOL §4).
///
/// Its `bytes` are what a store keeps: the 64-byte message signature, or for a Notify without a
/// message the 32-byte SHA-256 of the canonical topics and group id. The lengths differ, so the two
/// forms never collide.
public struct IdempotencyKey: Hashable, Sendable {
    public let bytes: [UInt8]

    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// The message signature (Ed25519 is deterministic and the payload carries a random nonce).
    public static func message(signature: [UInt8]) -> IdempotencyKey { IdempotencyKey(bytes: signature) }

    /// SHA-256 of the canonical form:
    /// `"pushnode-notify-v1" 0x00 ‖ (spaceKey 0x00 topic 0x00)* ‖ 0x01 ‖ groupId?`
    /// with the unique `(spaceKey, topic)` pairs in byte order. Topics and base58 never contain
    /// 0x00 or 0x01, so the form is unambiguous; order and repeats in the request do not matter.
    public static func canonical(topics: [TopicRef], groupId: String?) -> IdempotencyKey {
        IdempotencyKey(bytes: SHA256.hash(canonicalForm(topics: topics, groupId: groupId)))
    }

    static func canonicalForm(topics: [TopicRef], groupId: String?) -> [UInt8] {
        var out = Array("pushnode-notify-v1".utf8)
        out.append(0)
        for ref in Set(topics).sorted() {
            out += Array(ref.spaceKey.string.utf8)
            out.append(0)
            out += Array(ref.topic.utf8)
            out.append(0)
        }
        out.append(1)
        if let groupId { out += Array(groupId.utf8) }
        return out
    }
}

/// `registrationId` = lowercase hex of the first 16 bytes of
/// SHA-256(`platform ‖ 0x00 ‖ appId ‖ 0x00 ‖ environment ‖ 0x00 ‖ token`) (PROTOCOL §3).
public enum RegistrationID {
    public static func make(platform: Platform, appId: String, environment: String, token: String) -> String {
        var input = Array(platform.rawValue.utf8)
        input.append(0)
        input += Array(appId.utf8)
        input.append(0)
        input += Array(environment.utf8)
        input.append(0)
        input += Array(token.utf8)
        return Hex.encode(SHA256.hash(input).prefix(16))
    }
}
