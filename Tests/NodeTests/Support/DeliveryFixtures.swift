import Foundation
import PushProtocol
@testable import PushDelivery
@testable import PushStore
@testable import PushSupport

/// Shared inputs for the delivery and gateway tests.
enum Fixtures {
    /// A fixed "now": 2025-01-01T00:00:00Z.
    static let now = Date(timeIntervalSince1970: 1_735_689_600)
    static let notificationId = "8a7c2f0e-5b1d-4f7a-9c3e-2d6b1a0f9e84"
    static let groupId = "fc3e510dcc38f783dd3923b72b9846d73a71648f21ee5e375f0c3597d069470e"
    /// Standard base64 with `+` and `/`, which must reach the wire unescaped; a 64-byte signature.
    static let message = DeliveryJob.SealedMessage(
        payload: "q83vASNFZ4mrze8BI0VniavN7wEjRWeJ+/8AAQIDBAUGBwgJCgsMDQ4PEBESExQVFhcYGRobHB0eHw==",
        signature: "3q2+7wABAgMEBQYHCAkKCwwNDg8QERITFBUWFxgZGhscHR4fICEiIyQlJicoKSorLC0uLzAxMjM0NTY3ODk6Ow==",
        keyId: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"
    )
    static let fcmToken = "dXk3Zk9wUnE6APA91bHq_example-token_0123456789"
    static let apnsToken = "5F1E6A2B9C3D4E5F60718293A4B5C6D7E8F90112233445566778899AABBCCDDE"
    static let endpoint = "https://push.example.net:8443/wpush/v2/gAAAAABk-token"
    /// The shape of an HMS Core / HarmonyOS Push Kit token.
    static let pushKitToken = "MAAALgE4G98BAAAAstExampleTokenForHuaweiPushKit0123456789"
    /// A valid-shaped subscriber point and auth secret (the fake encryptor never uses them).
    static let p256dhBytes: [UInt8] = [0x04] + (1...64).map { UInt8($0) }
    static let authBytes: [UInt8] = (0..<16).map { UInt8(0xa0 + $0) }

    static func registration(_ platform: Platform, environment: String = "") -> DeliveryAddress {
        switch platform {
        case .android, .ios:
            return .init(platform: platform, token: fcmToken)
        case .apns, .apnsVoip:
            return .init(platform: platform, token: apnsToken, environment: environment.isEmpty ? "production" : environment)
        case .webpush:
            return .init(platform: .webpush, token: endpoint, p256dh: p256dhBytes, auth: authBytes)
        case .huawei, .harmony:
            return .init(platform: platform, token: pushKitToken)
        }
    }

    static func job(_ platform: Platform, _ kind: NotifyKind = .message, groupId: String? = Fixtures.groupId,
                    withMessage: Bool? = nil, ttl: TimeInterval = 3600, attempts: Int = 0,
                    environment: String = "", outboxId: Int64 = 42) -> DeliveryJob {
        DeliveryJob(
            outboxId: outboxId,
            notificationId: notificationId,
            registrationId: "r-\(platform.rawValue)",
            registration: registration(platform, environment: environment),
            kind: kind,
            message: (withMessage ?? (kind != .silent)) ? message : nil,
            groupId: groupId,
            createdAt: now,
            expiresAt: now.addingTimeInterval(ttl),
            attempts: attempts
        )
    }

    /// Parses a body as a JSON object (fails the test's expectation with an empty dictionary).
    static func json(_ bytes: [UInt8]) -> [String: Any] {
        (try? JSONSerialization.jsonObject(with: Data(bytes)) as? [String: Any]) ?? [:]
    }

    static func answer(_ status: Int, _ body: String = "", headers: [String: String] = [:]) -> ProviderAnswer {
        ProviderAnswer(status: status, headers: headers, body: Array(body.utf8))
    }
}

/// A deterministic random source (SplitMix64) so jitter tests see fixed numbers.
struct SeededGenerator: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9e37_79b9_7f4a_7c15
        var z = state
        z = (z ^ (z >> 30)) &* 0xbf58_476d_1ce4_e5b9
        z = (z ^ (z >> 27)) &* 0x94d0_49bb_1331_11eb
        return z ^ (z >> 31)
    }
}
