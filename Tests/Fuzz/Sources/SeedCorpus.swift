import Foundation
import PushCrypto
import PushProtocol
@testable import PushAnySync
import PushHTTP

/// Writes the seed corpora (`Tests/Fuzz/corpus/<target>/`): real, valid inputs of each target, from
/// Spec/vectors and the door's own encoders as the tests use them. `make fuzz-seeds` runs it
/// (`PUSHNODE_FUZZ_WRITE_SEEDS=<corpus dir>`); the files are committed, so a fuzz run starts from them.
enum SeedCorpus {
    static func write(to directory: String, vectors: String) throws {
        var seeds: [String: [[UInt8]]] = [:]
        let signatures = try json("\(vectors)/http-signature-profile.json")
        for case let item as [String: Any] in signatures["cases"] as? [Any] ?? [] {
            let headers = item["headers"] as? [String: String] ?? [:]
            let input = headers["Signature-Input"] ?? "", signature = headers["Signature"] ?? ""
            let digest = headers["Content-Digest"] ?? "", body = item["body"] as? String ?? ""
            seeds["structured-field", default: []] += [Array(input.utf8), Array(signature.utf8)]
            seeds["http-signature", default: []].append(Array("\(input)\n\(signature)\n\(digest)\n\(body)".utf8))
            seeds["content-digest", default: []].append(Array("\(ContentDigest.header(for: Array(body.utf8)))\n\(body)".utf8))
        }
        let accounts = try json("\(vectors)/account-id.json")
        for key in ["valid", "invalid"] {
            for case let item as [String: Any] in accounts[key] as? [Any] ?? [] {
                guard let id = item["accountId"] as? String else { continue }
                seeds["account-id", default: []].append(Array(id.utf8))
                seeds["base58", default: []].append(Array(id.utf8))
            }
        }
        for case let item as [String: Any] in try json("\(vectors)/rfc8188.json")["cases"] as? [Any] ?? [] {
            if let body = item["body"] as? String { seeds["ece-rfc8188", default: []].append(try Base64.decodeURL(body)) }
            if let text = item["plaintext"] as? String { seeds["ece-rfc8188", default: []].append([25] + Array(text.utf8)) }
        }
        let webPush = try json("\(vectors)/rfc8291.json")
        if let body = webPush["body"] as? String { seeds["webpush-rfc8291", default: []].append(try Base64.decodeURL(body)) }
        seeds["webpush-rfc8291", default: []].append(Array((webPush["plaintext"] as? String ?? "").utf8))
        seeds["config-yaml"] = [
            Array(try String(contentsOfFile: "\(vectors)/../../config.yaml.example", encoding: .utf8).utf8),
            Array("listen: 0.0.0.0:8765\nlimits: {maxBodyBytes: 1024}\nanysync: {listen: 127.0.0.1:0}\n4096".utf8),
        ]
        seeds["json-body"] = try JSONBodySeeds.all()
        seeds["wire-decoder"] = try JSONBodySeeds.wireDecoder()
        seeds["anysync-handshake"] = AnySyncSeeds.handshake()
        seeds["anysync-certificate"] = try AnySyncSeeds.certificate()
        seeds["anysync-drpc"] = AnySyncSeeds.streams().map { [7] + $0 }
        seeds["anysync-yamux"] = [[255] + AnySyncSeeds.session(), [1] + AnySyncSeeds.session()]
        seeds["anysync-protobuf"] = AnySyncSeeds.bodies().map(\.body)
        seeds["anysync-rpc"] = AnySyncSeeds.bodies().map { [UInt8(AnySyncRPCTarget.rpcs.firstIndex(of: $0.rpc)!)] + $0.body }
        for (target, inputs) in seeds {
            let folder = "\(directory)/\(target)"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for input in inputs {
                try Data(input).write(to: URL(fileURLWithPath: "\(folder)/seed-\(SHA256.hex(input).prefix(16))"))
            }
        }
    }

    private static func json(_ path: String) throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: path))) as? [String: Any] ?? [:]
    }
}

/// Valid request bodies of every route with one (the first byte picks the route, as the target reads it).
enum JSONBodySeeds {
    /// The same bodies for `wire-decoder`, each under the selector of every request type, and a few
    /// the two readers must agree on beside them (escapes, a duplicate key, numbers, nesting).
    static func wireDecoder() throws -> [[UInt8]] {
        let bodies = try all().map { Array($0.dropFirst()) } + [
            #"{"topics":[],"ttl":60,"x":{"y":[1,-0,1.5e3,null,true,"\u00fc\ud83d\udcac\n"]}}"#,
            #"{"topics":[],"topics":null,"\u0074tl":1.0}"#,
        ].map { Array($0.utf8) }
        return bodies.flatMap { body in WireDecoderTarget.types.indices.map { [UInt8($0)] + body } }
    }

    static func all() throws -> [[UInt8]] {
        let space = try Ed25519.KeyPair(seed: [UInt8](repeating: 9, count: 32))
        let spaceKey = try SpaceKey(publicKey: space.publicKey)
        let topic = Topic(spaceKey: spaceKey, topic: "chats", signature: space.sign(Array("chats".utf8)))
        let message = NotifyMessage(keyId: String(repeating: "a", count: 64), payload: [UInt8](repeating: 1, count: 40),
                                    signature: [UInt8](repeating: 2, count: 64))
        let bodies: [String: [UInt8]] = [
            "/v1/tokens": try JSON.encode(SetTokenRequest(deviceId: "d1", platform: .android, token: "fcm-token-1")),
            "/v1/tokens/revoke": Array(#"{"deviceId":"d1"}"#.utf8),
            "/v1/spaces": try JSON.encode(SpaceRequest(spaceKey: spaceKey, signature: space.sign(Array(JSONBodyTarget.caller.string.utf8)))),
            "/v1/spaces/remove": try JSON.encode(SpaceRequest(spaceKey: spaceKey, signature: [UInt8](repeating: 0, count: 64))),
            "/v1/subscriptions": try JSON.encode(SubscribeRequest(topics: [topic])),
            "/v1/subscriptions/remove": try JSON.encode(UnsubscribeRequest(topics: [topic.ref])),
            "/v1/notify": try JSON.encode(NotifyRequest(topics: [topic], message: message, groupId: "g1")),
            "/v1/notify/silent": try JSON.encode(NotifySilentRequest(topics: [topic])),
        ]
        return JSONBodyTarget.routes.enumerated().compactMap { index, route in
            bodies[route.path].map { [UInt8(index)] + $0 }
        }
    }
}
