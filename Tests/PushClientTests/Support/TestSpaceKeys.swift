import PushCrypto
import PushProtocol

/// Valid space keys for tests that only need distinct spaces: base58 of SHA-256 of a label.
enum TestSpaceKeys {
    static func string(_ label: String) -> String { key(label).string }

    static func key(_ label: String) -> SpaceKey {
        try! SpaceKey(publicKey: SHA256.hash(Array(label.utf8)))
    }
}

extension TopicRef {
    /// A topic reference from a space key's text (which the test knows is valid).
    init(space: String, topic: String) {
        self.init(spaceKey: try! SpaceKey(space), topic: topic)
    }
}
