import Foundation
import PushCrypto
import PushDelivery
import PushSupport

/// VAPID (RFC 8292) `Authorization` values, one per push service origin, signed once and
/// reused for `reuse` (12 h); each JWT expires `lifetime` after signing (16 h, under the 24 h
/// push services accept), so a reused value always has hours left.
package final class CachingVAPIDAuthorizer: VAPIDAuthorizer, Sendable {
    package static let reuse: TimeInterval = 12 * 3600
    package static let lifetime: TimeInterval = 16 * 3600
    /// Origins remembered at most; past it, values due for renewal are dropped.
    static let capacity = 10_000

    private let key: VAPID.Key
    private let subject: String?
    private struct Cache {
        var values: [String: (value: String, signedAt: Date)] = [:]
        var signed = 0
    }

    private let cache = Protected(Cache())

    /// `subject` is `webpush.subject` (`mailto:` or `https:`); nil or empty leaves `sub` out.
    package init(key: VAPID.Key, subject: String?) {
        self.key = key
        self.subject = subject?.isEmpty == false ? subject : nil
    }

    /// JWTs signed so far.
    package var signatures: Int { cache.withLock { $0.signed } }

    package func authorization(forOrigin origin: String, now: Date) throws -> String {
        if let hit = cache.withLock({ $0.values[origin] }), now.timeIntervalSince(hit.signedAt) < Self.reuse,
           now >= hit.signedAt {
            return hit.value
        }
        let expiresAt = Int(now.addingTimeInterval(Self.lifetime).timeIntervalSince1970)
        let value = try key.authorization(audience: origin, subject: subject, expiresAt: expiresAt)
        cache.withLock { cache in
            if cache.values.count >= Self.capacity {
                cache.values = cache.values.filter { now.timeIntervalSince($0.value.signedAt) < Self.reuse }
                if cache.values.count >= Self.capacity { cache.values.removeAll(keepingCapacity: true) }
            }
            cache.values[origin] = (value, now)
            cache.signed += 1
        }
        return value
    }
}
