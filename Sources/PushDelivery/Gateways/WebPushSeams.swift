import Foundation

/// RFC 8291 message encryption, injected so the gateway stays pure and testable with a fake.
package protocol WebPushEncryptor: Sendable {
    /// One `aes128gcm` message for the subscriber — `salt ‖ rs ‖ idlen ‖ keyid` header and a
    /// single record, under a fresh ephemeral key — the whole request body.
    /// `p256dh` is the 65-byte uncompressed point, `auth` the 16-byte secret.
    ///
    /// - SeeAlso: RFC 8291 §3–4, RFC 8188 §2.
    func encrypt(_ plaintext: [UInt8], p256dh: [UInt8], auth: [UInt8]) throws -> [UInt8]
}

/// VAPID (RFC 8292), injected: signs and caches one JWT per origin.
package protocol VAPIDAuthorizer: Sendable {
    /// The `Authorization` value for a push service origin at `now`:
    /// `vapid t=<ES256 JWT with aud = origin>, k=<base64url public key>`.
    func authorization(forOrigin origin: String, now: Date) throws -> String
}
