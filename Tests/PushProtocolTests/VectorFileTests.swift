import Foundation
import PushCrypto
import Testing
@testable import PushProtocol

/// The identifier vectors in `Spec/vectors/`, computed by an independent Python implementation
/// (and re-checked by `Tests/Interop/test_node_vectors.py`).
@Suite struct VectorFileTests {
    private static func load(_ name: String) throws -> [[String: Any]] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let data = try Data(contentsOf: root.appendingPathComponent("Spec/vectors/\(name)"))
        let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: Any])
        return try #require(object["cases"] as? [[String: Any]])
    }

    @Test func registrationIds() throws {
        let cases = try Self.load("registration-id.json")
        #expect(cases.count >= 4)
        for c in cases {
            let platform = try #require(Platform(rawValue: c["platform"] as? String ?? ""))
            let id = RegistrationID.make(platform: platform, appId: c["appId"] as! String, environment: c["environment"] as! String,
                                         token: c["token"] as! String)
            #expect(id == c["registrationId"] as? String)
        }
    }

    @Test func notifyIdempotencyKeys() throws {
        let cases = try Self.load("notify-idempotency-key.json")
        #expect(cases.count >= 4)
        for c in cases {
            let topics = try (c["topics"] as! [[String: String]]).map { TopicRef(spaceKey: try SpaceKey($0["spaceKey"]!), topic: $0["topic"]!) }
            let key = IdempotencyKey.canonical(topics: topics, groupId: c["groupId"] as? String)
            #expect(Hex.encode(key.bytes) == c["key"] as? String)
        }
    }
}
