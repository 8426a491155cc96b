import Foundation
import PushCrypto
@testable import PushAnySync
import PushNet
import PushService
import PushStore

/// One rpc body of `pushproto.Push` through the door's real handler (`PushWire` decoding →
/// `PushWire+Service` → `PushService` on a fresh `MemoryStore`); the first byte picks the rpc. The
/// reply must carry a code the contract has (PROTOCOL §8.1), and never the internal 1200.
enum AnySyncRPCTarget {
    static let rpcs = ["SetToken", "RevokeToken", "CreateSpace", "RemoveSpace", "Subscriptions", "Subscribe",
                       "Unsubscribe", "SubscribeAll", "Notify", "NotifySilent"]
    static let caller = try! AccountID(publicKey: Ed25519.KeyPair(seed: [UInt8](repeating: 4, count: 32)).publicKey)
    static let codes: Set<UInt64> = [0, 700, 1200, 1201, 1202]

    static func handler(caller: AccountID) -> PushCallHandler {
        let service = PushService(store: MemoryStore(), configuration: .init(), resolver: JSONBodyTarget.NoResolver())
        return PushCallHandler(service: service, rateLimiter: RateLimiter(policy: .unlimitedForFuzzing), caller: caller,
                               peerID: "12D3KooWFuzzPeer", disabledPlatformToken: { _ in }, enabledPlatforms: [.android, .ios])
    }

    static func run(_ bytes: [UInt8]) {
        let (selector, body) = bytes.selectorAndRest
        let rpc = rpcs[Int(selector) % rpcs.count]
        let handler = handler(caller: caller)
        defer { (handler.service.registry as? MemoryStore)?.close() }
        switch handler.handle(rpc: PushRPC.prefix + rpc, body: body) {
        case .message:
            break
        case .error(let code, let message):
            FuzzCheck.expect(codes.contains(code), "\(rpc) answered code \(code)")
            FuzzCheck.expect(message != AnySyncErrorCode.internalReply.message, "\(rpc) answered an internal error")
        }
    }
}

extension DRPCReply {
    var message: String? {
        guard case .error(_, let message) = self else { return nil }
        return message
    }
}

extension RateLimitPolicy {
    /// Buckets no fuzz input empties: the limiter is not what this target measures.
    static let unlimitedForFuzzing = RateLimitPolicy(registrationPerMinute: 1e9, registrationBurst: 1_000_000_000,
                                                     notifyPerSecond: 1e9, notifyBurst: 1_000_000_000)
}
