import Foundation
import PushCrypto
import PushProtocol
import PushService
import PushStore

/// Fills a store for `PushBench growth` before any node opens it, through the store's own API
/// (no HTTP, no SQL of its own): `registrations` FCM registrations, `devicesPerAccount` per
/// account, every account subscribed to one bulk topic, and `queued` deliveries as Notifies to
/// that topic through `PushService.notify` (each fans out to every registration, inside the
/// store's write transaction, written as recipient chunks), from `threads` threads at once.
/// The probe audience (`E2EPopulation`'s FCM accounts, one registration each) is registered too:
/// its topic is what the timed Notifies go to.
struct GrowthFill {
    var registrations: Int
    var queued: Int
    var devicesPerAccount = 100
    var threads = 8

    /// Seconds each step took, and what the store then holds.
    struct Report {
        var registrationSeconds: Double
        var queueSeconds: Double
        var depth: Int

        var line: String {
            String(format: "fill: registrations %.1f s, queued deliveries %.1f s (%d queued)", registrationSeconds, queueSeconds, depth)
        }
    }

    func run(into store: any PushStore, probe: E2EPopulation.Audience) throws -> Report {
        let space = Ed25519.KeyPair()
        let bulk = Topic(spaceKey: try SpaceKey(publicKey: space.publicKey), topic: "growth-bulk",
                         signature: space.sign(Array("growth-bulk".utf8)))
        let accounts = (registrations + devicesPerAccount - 1) / devicesPerAccount
        let devices = devicesPerAccount
        let total = registrations
        let threads = threads
        let now = Date()
        let registrationSeconds = try BenchRun.onThreads(count: threads) { thread in
            for account in stride(from: thread, to: accounts, by: threads) {
                let owner = AccountKey.generate().accountID.string
                for device in 0..<min(devices, total - account * devices) {
                    let address = DeliveryAddress(platform: .android, token: "growth-\(account)-\(device)")
                    _ = try store.saveRegistration(Registration(id: address.registrationId, account: owner, deviceId: "device-\(device)",
                                                                address: address, createdAt: now, updatedAt: now))
                }
                _ = try store.replaceSubscriptions(ofAccount: owner, with: [bulk.ref], limit: .max)
            }
        }
        try register(probe, in: store, at: now)

        let service = PushService(store: store, configuration: .init(enabledPlatforms: [.android]))
        let notifies = max(1, queued / max(registrations, 1))
        let lanes = min(threads, notifies)
        let queueSeconds = try BenchRun.onThreads(count: lanes) { lane in
            let sender = AccountKey.generate()
            for _ in stride(from: lane, to: notifies, by: lanes) {
                let payload = SecureRandom.bytes(256)
                let message = NotifyMessage(keyId: String(repeating: "ab", count: 32), payload: payload, signature: sender.sign(payload))
                _ = try service.notify(NotifyRequest(topics: [bulk], message: message), caller: sender.accountID)
            }
        }
        let depth = try store.outboxStatistics().values.reduce(0) { $0 + $1.depth }
        return Report(registrationSeconds: registrationSeconds, queueSeconds: queueSeconds, depth: depth)
    }

    /// The probe audience: one FCM registration per account, subscribed to the probe topic.
    private func register(_ probe: E2EPopulation.Audience, in store: any PushStore, at now: Date) throws {
        for (index, account) in probe.accounts.enumerated() {
            let address = DeliveryAddress(platform: .android, token: "bench-fcm-registration-token-\(index)")
            _ = try store.saveRegistration(Registration(id: address.registrationId, account: account.accountID.string,
                                                        deviceId: "bench-device", address: address, createdAt: now, updatedAt: now))
            _ = try store.replaceSubscriptions(ofAccount: account.accountID.string, with: [probe.topic.ref], limit: .max)
        }
    }
}
