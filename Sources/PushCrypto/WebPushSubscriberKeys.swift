/// A push subscription's keys (`keys.p256dh`, `keys.auth` of a `PushSubscription`),
/// validated once so each message encrypted to them does no parsing.
/// - SeeAlso: RFC 8291 §2, §3.
public struct WebPushSubscriberKeys: Sendable, Equatable {
    public static let authSize = 16

    /// The user agent's ECDH public key (`ua_public`), on the curve.
    public let p256dh: P256.PublicKey
    /// The 16-byte authentication secret.
    public let auth: [UInt8]
    /// `"WebPush: info" ‖ 0x00 ‖ ua_public`: the part of `key_info` fixed by the subscriber.
    let keyInfoPrefix: [UInt8]

    /// Throws `invalidKeyLength(expected: 16, …)` unless `auth` is 16 bytes.
    public init(p256dh: P256.PublicKey, auth: [UInt8]) throws {
        guard auth.count == Self.authSize else {
            throw CryptoError.invalidKeyLength(expected: Self.authSize, got: auth.count)
        }
        self.p256dh = p256dh
        self.auth = auth
        keyInfoPrefix = WebPush.keyInfoLabel + p256dh.rawRepresentation
    }

    /// Parses the base64url strings of a subscription. Errors, in order of checking:
    /// `invalidEncoding("p256dh …")` (not base64url), `invalidKeyLength(expected: 65, …)`
    /// (compressed, 64-byte or other lengths), `invalidPoint` (no 0x04 prefix or not on the
    /// curve), `invalidEncoding("auth …")`, `invalidKeyLength(expected: 16, …)`.
    public init(p256dh: String, auth: String) throws {
        let point: [UInt8]
        do { point = try Base64.decodeURL(p256dh) } catch { throw CryptoError.invalidEncoding("p256dh is not base64url") }
        let key = try P256.PublicKey(rawRepresentation: point)
        let secret: [UInt8]
        do { secret = try Base64.decodeURL(auth) } catch { throw CryptoError.invalidEncoding("auth is not base64url") }
        try self.init(p256dh: key, auth: secret)
    }

    public static func == (a: Self, b: Self) -> Bool {
        a.p256dh == b.p256dh && ConstantTime.equals(a.auth, b.auth)
    }
}
