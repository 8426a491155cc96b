import Foundation
import PushCrypto

/// PushCrypto's parsers of outside bytes: base58, account ids, RFC 8188 and RFC 8291 bodies.
enum CryptoTargets {
    /// Decoding refuses or round-trips exactly; any bytes round-trip through encode.
    static func base58(_ bytes: [UInt8]) {
        let text = bytes.text
        if let decoded = try? Base58.decode(text) {
            FuzzCheck.expect(Base58.encode(decoded) == text, "base58 \(text) decoded but does not re-encode to itself")
        }
        let encoded = Base58.encode(bytes)
        FuzzCheck.expect((try? Base58.decode(encoded)) == bytes, "base58 round-trip lost bytes")
    }

    /// An account id parses only to the id that prints as the same text; 32 bytes make one that
    /// parses back.
    static func accountID(_ bytes: [UInt8]) {
        let text = bytes.text
        if let id = try? AccountID(text) {
            FuzzCheck.expect(id.string == text, "account id \(text) parsed but prints as \(id.string)")
            _ = id.verify(signature: bytes, message: bytes)
        }
        if bytes.count >= 32, let id = try? AccountID(publicKey: Array(bytes.prefix(32))) {
            FuzzCheck.expect((try? AccountID(id.string))?.string == id.string, "an account id of 32 bytes does not parse back")
        }
    }

    static let ikm = [UInt8](repeating: 0x11, count: 16)
    static let salt = [UInt8](repeating: 0x22, count: 16)

    /// The input as a whole `aes128gcm` body (header parsing, record splitting, tags), then as the
    /// plaintext of records this target seals itself (delimiters, padding and record size chosen by
    /// the first bytes) so the code behind a valid tag is reached too: each must decrypt back.
    static func ece(_ bytes: [UInt8]) {
        _ = try? ECE.decrypt(bytes, ikm: ikm)
        let (selector, rest) = bytes.selectorAndRest
        let recordSize = 18 + Int(selector) * 3
        let padding = Int(rest.first ?? 0) % 64
        guard let body = try? ECE.encrypt(rest, ikm: ikm, salt: salt, recordSize: recordSize, keyID: Array(rest.prefix(3)),
                                          padding: padding) else { return }
        FuzzCheck.expect((try? ECE.decrypt(body, ikm: ikm)) == rest, "RFC 8188 round-trip failed (rs \(recordSize), pad \(padding))")
    }

    static let subscriber = try! P256.PrivateKey(rawRepresentation: [UInt8](repeating: 0x33, count: 32))
    static let auth = [UInt8](repeating: 0x44, count: 16)

    /// The input as a Web Push body for a fixed subscriber, then sealed to it and opened again.
    static func webPush(_ bytes: [UInt8]) {
        _ = try? WebPush.decrypt(bytes, privateKey: subscriber, auth: auth)
        guard bytes.count <= WebPush.maxPlaintextSize,
              let keys = try? WebPushSubscriberKeys(p256dh: P256.PublicKey(rawRepresentation: subscriber.publicKeyRawRepresentation), auth: auth),
              let body = try? WebPush.encrypt(bytes, to: keys) else { return }
        FuzzCheck.expect((try? WebPush.decrypt(body, privateKey: subscriber, auth: auth)) == bytes, "RFC 8291 round-trip failed")
    }
}
