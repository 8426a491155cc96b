import Foundation
import PushCrypto
import PushProtocol
@testable import PushNet
@testable import PushService
@testable import PushStore

/// DNS answers scripted per host.
struct FakeResolver: HostResolving {
    var answers: [String: HostResolution] = [
        "push.example.net": .addresses([.v4([93, 184, 216, 34]), IPAddress("2606:2800:220:1:248:1893:25c8:1946")!]),
        "intranet.example": .addresses([.v4([93, 184, 216, 34]), .v4([192, 168, 1, 20])]),
        "v6-ula.example": .addresses([IPAddress("fd12:3456::1")!]),
        "flaky.example": .temporaryFailure,
    ]

    func resolve(_ host: String) -> HostResolution { answers[host] ?? .notFound }
}

/// A space push key that signs topics and account ids.
struct TestSpace {
    let keyPair: Ed25519.KeyPair
    let key: SpaceKey

    init(seed: UInt8) {
        keyPair = try! Ed25519.KeyPair(seed: [UInt8](repeating: seed, count: 32))
        key = try! SpaceKey(publicKey: keyPair.publicKey)
    }

    func topic(_ name: String) -> Topic {
        Topic(spaceKey: key, topic: name, signature: keyPair.sign(Array(name.utf8)))
    }

    func registration(for account: AccountID) -> SpaceRequest {
        SpaceRequest(spaceKey: key, signature: keyPair.sign(Array(account.string.utf8)))
    }
}

/// A service on a memory store (no file: the service's rules are not about SQLite) with a settable
/// clock, which the store's statistics read too.
final class ServiceFixture {
    let store: MemoryStore
    let service: PushService
    let now: Box<Date>

    init(_ configuration: PushService.Configuration = .init(), resolver: FakeResolver = FakeResolver()) throws {
        let now = Box(t0)
        self.now = now
        store = MemoryStore(clock: { now.current })
        service = PushService(store: store, configuration: configuration, resolver: resolver, clock: { now.current })
    }

    deinit { store.close() }

    /// Registers a token and returns its registration id.
    @discardableResult
    func register(_ account: AccountKey, device: String, platform: Platform = .android, token: String? = nil) throws -> String {
        let seed = "\(platform.rawValue)/\(account.accountID.string)/\(device)"
        let token = token ?? (platform.provider == .apns ? SHA256.hex(Array(seed.utf8)) : seed)
        return try service.setToken(SetTokenRequest(deviceId: device, platform: platform, token: token),
                                    caller: account.accountID).registrationId
    }

    /// Claims every due delivery of every provider (at the fixture's clock).
    func drain() throws -> [OutboxEntry] {
        try Provider.allCases.flatMap { try store.claimDue(provider: $0, limit: 10_000, now: now.current).entries }
    }

    /// A signed message of `account`.
    func message(from account: AccountKey, size: Int = 100, seed: UInt8 = 0) -> NotifyMessage {
        let payload = (0..<size).map { UInt8(truncatingIfNeeded: $0 &+ Int(seed)) }
        return NotifyMessage(keyId: String(repeating: "c", count: 64), payload: payload, signature: account.sign(payload))
    }
}

/// The refusal a service call produced, nil when it succeeded or failed otherwise.
func serviceRefusal(_ body: () throws -> Void) -> ServiceError.Refusal? {
    do {
        try body()
        return nil
    } catch {
        return (error as? ServiceError)?.refusal
    }
}

func account(_ seed: UInt8) -> AccountKey { try! AccountKey(seed: [UInt8](repeating: seed, count: 32)) }

extension CachingResolver {
    /// A caching resolver over `base` that has already looked `hosts` up.
    static func warmed(_ base: any HostResolving, _ hosts: [String]) -> CachingResolver {
        let resolver = CachingResolver(base: base)
        for host in hosts { _ = resolver.resolve(host) }
        return resolver
    }
}
