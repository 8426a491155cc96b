import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushClient
@testable import PushDelivery
@testable import PushService

/// Re-measures `ProviderPayloadLimit.everyProvider` with the node's own gateway builders, so the
/// constant cannot drift from what the node actually sends: the largest sealed payload whose
/// APNs alert body stays within 4096 bytes, and whose Web Push record plaintext stays within 3993
/// (4096-byte record − 86-byte header − delimiter − tag), with a 64-character groupId.
@Suite struct ProviderBoundMeasurementTests {
    static let now = Date(timeIntervalSince1970: 1_700_000_000)

    static func job(sealedBytes: Int, platform: Platform, token: String) -> DeliveryJob {
        DeliveryJob(outboxId: 1, notificationId: PushService.newNotificationID(),
                    registrationId: "r",
                    registration: .init(platform: platform, token: token, environment: platform == .apns ? "production" : ""),
                    kind: .message,
                    message: .init(payload: Base64.encode([UInt8](repeating: 0xa5, count: sealedBytes)),
                                   signature: Base64.encode([UInt8](repeating: 1, count: 64)),
                                   keyId: String(repeating: "e", count: 64)),
                    groupId: String(repeating: "f", count: 64),
                    createdAt: now, expiresAt: now.addingTimeInterval(86_400))
    }

    /// The largest size in `range` for which `fits` holds (it holds below and fails above).
    static func largest(in range: ClosedRange<Int>, _ fits: (Int) -> Bool) -> Int {
        var best = range.lowerBound
        for size in range where fits(size) { best = size }
        return best
    }

    static func apnsFits(_ size: Int) -> Bool {
        let job = job(sealedBytes: size, platform: .apns, token: String(repeating: "ab", count: 32))
        do {
            _ = try APNsGateway.buildRequest(job: job, credential: "jwt", configuration: .init(topic: "org.example.app",
                                             host: .byEnvironment, defaultAlert: DefaultAlert()), now: now)
            return true
        } catch {
            return false
        }
    }

    static func webPushFits(_ size: Int) -> Bool {
        let job = job(sealedBytes: size, platform: .webpush, token: "https://push.example.org/x")
        return WebPushGateway.plaintext(for: job).count <= 4096 - 86 - 17
    }

    /// Measured here: 2688 (a 32-hex `x-any-id`, the default alert). The constant keeps one
    /// base64 quantum (3 bytes) below it, as first measured, leaving slack for a longer id.
    @Test func theConstantFitsAnAPNsAlertWithinOneBase64Quantum() {
        let apns = Self.largest(in: 2500...2900, Self.apnsFits)
        #expect(ProviderPayloadLimit.everyProvider <= apns)
        #expect(apns - ProviderPayloadLimit.everyProvider <= 3)
        #expect(Self.apnsFits(ProviderPayloadLimit.everyProvider))
    }

    /// Measured here: 2721.
    @Test func webPushTakesMoreThanTheConstant() {
        let webPush = Self.largest(in: 2500...2900, Self.webPushFits)
        #expect(webPush > ProviderPayloadLimit.everyProvider)
        #expect(webPush < Limits.default.maxPayloadBytes)
    }

    @Test func theNodeDefaultIsAboveBoth() {
        #expect(!Self.apnsFits(Limits.default.maxPayloadBytes))
        #expect(!Self.webPushFits(Limits.default.maxPayloadBytes))
    }
}
