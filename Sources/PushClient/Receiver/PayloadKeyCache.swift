import PushCrypto
import PushSupport

/// The receiver's `keyId → payload key` map (any's cache contract): append-only — a key is never
/// evicted on rotation, because a late push still carries the old `keyId`. Thread-safe.
///
/// In an app this mirrors the OS keystore copy the notification extension reads; this type is the
/// in-process form.
public final class PayloadKeyCache: Sendable {
    private let keys = Protected<[String: [UInt8]]>([:])

    public init() {}

    /// Adds a raw 32-byte payload key; returns its `keyId` (`sha256hex(key)`).
    @discardableResult
    public func add(key: [UInt8]) throws(PushClientError) -> String {
        guard key.count == 32 else {
            throw PushClientError(code: .keyIdMismatch, message: "a payload key is 32 bytes, got \(key.count)")
        }
        let keyId = SHA256.hex(key)
        keys.withLock { if $0[keyId] == nil { $0[keyId] = key } }
        return keyId
    }

    /// Adds a key announced with its id (e.g. any's `push.encKey`/`encKeyId`), checking that they match.
    public func add(keyId: String, key: [UInt8]) throws(PushClientError) {
        let computed = try add(key: key)
        guard computed == keyId.lowercased() else {
            throw PushClientError(code: .keyIdMismatch, message: "keyId does not match the key")
        }
    }

    public func key(for keyId: String) -> [UInt8]? { keys.withLock { $0[keyId.lowercased()] } }

    public var count: Int { keys.withLock { $0.count } }
}
