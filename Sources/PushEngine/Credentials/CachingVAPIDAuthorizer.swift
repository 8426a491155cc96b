import Foundation
import PushCrypto
import PushDelivery

/// VAPID (RFC 8292) `Authorization` values, one per push service origin, signed once and
/// reused for `reuse` (12 h); each JWT expires `lifetime` after signing (16 h, under the 24 h
/// push services accept), so a reused value always has hours left.
package final class CachingVAPIDAuthorizer: VAPIDAuthorizer, @unchecked Sendable {
    package static let reuse: TimeInterval = 12 * 3600
    package static let lifetime: TimeInterval = 16 * 3600
    /// Origins remembered at most; past it, values due for renewal are dropped.
    static let capacity = 10_000

    private let key: VAPID.Key
    private let subject: String?
    private let lock = NSLock()
    private var cache: [String: (value: String, signedAt: Date)] = [:]
    private var signed = 0

    /// `subject` is `webpush.subject` (`mailto:` or `https:`); nil or empty leaves `sub` out.
    package init(key: VAPID.Key, subject: String?) {
        self.key = key
        self.subject = subject?.isEmpty == false ? subject : nil
    }

    /// JWTs signed so far.
    package var signatures: Int { lock.withLock { signed } }

    package func authorization(forOrigin origin: String, now: Date) throws -> String {
        if let hit = lock.withLock({ cache[origin] }), now.timeIntervalSince(hit.signedAt) < Self.reuse,
           now >= hit.signedAt {
            return hit.value
        }
        let expiresAt = Int(now.addingTimeInterval(Self.lifetime).timeIntervalSince1970)
        let value = try key.authorization(audience: origin, subject: subject, expiresAt: expiresAt)
        lock.withLock {
            if cache.count >= Self.capacity {
                cache = cache.filter { now.timeIntervalSince($0.value.signedAt) < Self.reuse }
                if cache.count >= Self.capacity { cache.removeAll(keepingCapacity: true) }
            }
            cache[origin] = (value, now)
            signed += 1
        }
        return value
    }
}
