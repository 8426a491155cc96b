import Foundation
import PushCrypto
import PushProtocol

/// Who `PushBench e2e` sends to: per provider, `fanOut` accounts with one registration each,
/// all subscribed to that provider's topic, registered through the node's signed API.
struct E2EPopulation {
    struct Audience {
        var provider: Provider
        var platform: Platform
        var topic: Topic
        var accounts: [AccountKey]
    }

    let audiences: [Audience]
    let sender = AccountKey.generate()
    /// Distinct APNs tokens and Web Push endpoint numbers, for the sink's document root.
    let apnsTokens: [String]
    /// The Web Push subscriptions' keys: one `p256dh` for all, an `auth` secret per endpoint.
    let webPushP256dh: [UInt8]
    let webPushAuths: [[UInt8]]

    init(providers: [Provider], fanOut: Int) throws {
        let space = Ed25519.KeyPair()
        let spaceKey = try SpaceKey(publicKey: space.publicKey)
        audiences = providers.map { provider in
            let name = "bench-\(provider.rawValue)"
            let platform: Platform = switch provider {
            case .fcm: .android
            case .apns: .apns
            case .webpush: .webpush
            case .huawei: .huawei
            case .harmony: .harmony
            }
            return Audience(provider: provider, platform: platform,
                            topic: Topic(spaceKey: spaceKey, topic: name, signature: space.sign(Array(name.utf8))),
                            accounts: (0..<fanOut).map { _ in AccountKey.generate() })
        }
        apnsTokens = (0..<fanOut).map { _ in SecureRandom.bytes(32).map { String(format: "%02x", $0) }.joined() }
        webPushP256dh = try P256.PrivateKey.generate().publicKeyRawRepresentation
        webPushAuths = (0..<fanOut).map { _ in SecureRandom.bytes(16) }
    }

    /// The Web Push subscriptions as a browser hands them over (`endpoint`, `keys`), for pywebpush.
    func webPushSubscriptions(sink: HTTP2Sink) -> [[String: Any]] {
        webPushAuths.indices.map { index in
            ["endpoint": sink.origin + "/push/\(index)",
             "keys": ["p256dh": Base64.encodeURL(webPushP256dh), "auth": Base64.encodeURL(webPushAuths[index])]]
        }
    }

    /// Registers every account's token and subscribes it, over one keep-alive connection.
    func register(on node: BenchNode, sink: HTTP2Sink) throws {
        let connection = try LoopbackConnection(port: node.port)
        for audience in audiences {
            for (index, account) in audience.accounts.enumerated() {
                let token = switch audience.platform {
                case .apns: apnsTokens[index]
                case .webpush: sink.origin + "/push/\(index)"
                default: "bench-fcm-registration-token-\(index)"
                }
                let registration = SetTokenRequest(
                    deviceId: "bench-device", platform: audience.platform, token: token,
                    p256dh: audience.platform == .webpush ? webPushP256dh : nil,
                    auth: audience.platform == .webpush ? webPushAuths[index] : nil)
                let signer = HTTPSigner(key: account)
                try expectOK(connection.exchange(SignedRequest.make("POST", "/v1/tokens", body: try JSON.encode(registration),
                                                                    signer: signer)), "POST /v1/tokens")
                try expectOK(connection.exchange(SignedRequest.make(
                    "POST", "/v1/subscriptions", body: try JSON.encode(SubscribeRequest(topics: [audience.topic])),
                    signer: signer)), "POST /v1/subscriptions")
            }
        }
    }

    /// `count` signed Notify requests to the audience's topic, each with a fresh `payloadBytes` payload.
    func notifies(to audience: Audience, count: Int, payloadBytes: Int) -> [[UInt8]] {
        let signer = HTTPSigner(key: sender)
        return (0..<count).map { _ in
            let payload = SecureRandom.bytes(payloadBytes)
            let message = NotifyMessage(keyId: String(repeating: "ab", count: 32), payload: payload, signature: sender.sign(payload))
            return SignedRequest.make("POST", "/v1/notify", body: try! JSON.encode(NotifyRequest(topics: [audience.topic], message: message)),
                                      signer: signer)
        }
    }

    /// The latest `lastDeliveryAt` among the audience's registrations (`GET /v1/tokens`).
    func lastDelivery(of audience: Audience, on node: BenchNode) throws -> Date? {
        let connection = try LoopbackConnection(port: node.port)
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var latest: Date?
        for account in audience.accounts {
            let answer = try connection.exchange(SignedRequest.make("GET", "/v1/tokens", signer: HTTPSigner(key: account)))
            try expectOK(answer, "GET /v1/tokens")
            let document = JSON.object(answer.body)
            for registration in document?["registrations"] as? [[String: Any]] ?? [] {
                guard let text = registration["lastDeliveryAt"] as? String, let date = formatter.date(from: text) else { continue }
                latest = max(latest ?? date, date)
            }
        }
        return latest
    }

    private func expectOK(_ answer: (status: Int, body: [UInt8]), _ what: String) throws {
        guard answer.status == 200 else {
            throw BenchFailure("\(what) answered \(answer.status): \(String(decoding: answer.body, as: UTF8.self))")
        }
    }
}
