import Foundation
import PushCrypto
import PushDelivery
import PushSupport

/// RFC 8291 encryption with `WebPush.encrypt` (a fresh ephemeral key and salt per message);
/// each subscriber's keys are parsed and checked once and kept (the point check is not free).
package final class CachingWebPushEncryptor: WebPushEncryptor, Sendable {
    static let capacity = 50_000

    private let keys = Protected<[[UInt8]: WebPushSubscriberKeys]>([:])

    package init() {}

    package func encrypt(_ plaintext: [UInt8], p256dh: [UInt8], auth: [UInt8]) throws -> [UInt8] {
        try WebPush.encrypt(plaintext, to: subscriberKeys(p256dh: p256dh, auth: auth))
    }

    func subscriberKeys(p256dh: [UInt8], auth: [UInt8]) throws -> WebPushSubscriberKeys {
        let cacheKey = p256dh + auth
        if let hit = keys.withLock({ $0[cacheKey] }) { return hit }
        let parsed = try WebPushSubscriberKeys(p256dh: P256.PublicKey(rawRepresentation: p256dh), auth: auth)
        keys.withLock { keys in
            if keys.count >= Self.capacity { keys.removeAll(keepingCapacity: true) }
            keys[cacheKey] = parsed
        }
        return parsed
    }
}
