import Foundation
import PushCrypto

// `pushnode webpush encrypt|decrypt`: RFC 8291 message encryption for interop tests and support
// work (options: `CommandTable.webpush`).

/// Encrypts stdin to a subscription with a fresh key and salt; prints the body in base64url.
func webpushEncrypt(_ args: Arguments) throws {
    let p256dh = try args.required("p256dh")
    let auth = try args.required("auth")
    let plaintext = [UInt8](FileHandle.standardInput.readDataToEndOfFile())
    let body = try explainingCryptoErrors {
        try WebPush.encrypt(plaintext, to: WebPushSubscriberKeys(p256dh: p256dh, auth: auth))
    }
    print(Base64.encodeURL(body))
}

/// Decrypts a base64url body from stdin with the subscriber's private key; writes the
/// plaintext, or nothing at all when the message does not open.
func webpushDecrypt(_ args: Arguments) throws {
    let privateKey = try args.required("private-key")
    let auth = try args.required("auth")
    let text = String(decoding: FileHandle.standardInput.readDataToEndOfFile(), as: UTF8.self)
        .trimmingCharacters(in: .whitespacesAndNewlines)
    let plaintext = try explainingCryptoErrors {
        let body = try Base64.decodeURL(text)
        return try WebPush.decrypt(body, privateKey: P256.PrivateKey(base64URL: privateKey), auth: Base64.decodeURL(auth))
    }
    FileHandle.standardOutput.write(Data(plaintext))
}
