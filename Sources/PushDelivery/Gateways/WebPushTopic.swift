import PushCrypto

/// The Web Push `Topic` header for a collapse group.
///
/// RFC 8030 §5.4 allows at most 32 characters of the base64url alphabet. A groupId is up to
/// 64 printable ASCII bytes, so it is digested: base64url (no padding) of the first 24 bytes of
/// SHA-256(UTF-8 groupId) — exactly 32 characters, and the push service never learns the raw
/// group id.
package enum WebPushTopic {
    package static func value(forGroupId groupId: String) -> String {
        Base64.encodeURL(SHA256.hash(Array(groupId.utf8)).prefix(24))
    }
}
