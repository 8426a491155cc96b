import Foundation
import PushCrypto

/// `PushBench crypto`: the per-delivery and per-request crypto costs, one core.
enum CryptoBench {
    static func run(timing: Timing = Timing()) throws {
        print("== crypto (single thread, median of \(timing.rounds) rounds of \(timing.milliseconds) ms)")
        let message = SecureRandom.bytes(64)
        let account = Ed25519.KeyPair()
        let signature = account.sign(message)
        report("Ed25519 sign (64 B)", timing.rate { Sink.consume(account.sign(message)) })
        report("Ed25519 verify (64 B)", timing.rate {
            Sink.consume(Ed25519.verify(signature: signature, message: message, publicKey: account.publicKey))
        })

        let peer = try P256.PrivateKey.generate().publicKey
        let fixed = try P256.PrivateKey.generate()
        report("P-256 ECDH alone", try timing.rate { Sink.consume(try fixed.sharedSecret(with: peer)) })
        report("P-256 keygen alone", try timing.rate { Sink.consume(try P256.PrivateKey.generate().publicKeyRawRepresentation) })

        // The subscriber's keys are parsed once per subscription, not per message.
        let subscriberKey = try P256.PrivateKey.generate()
        let p256dh = try subscriberKey.publicKey.base64URLRepresentation
        let auth = Base64.encodeURL(SecureRandom.bytes(16))
        let subscriber = try WebPushSubscriberKeys(p256dh: p256dh, auth: auth)
        let payload = SecureRandom.bytes(2048)
        let (keygenECDH, webPush, ratio) = try timing.compare(
            { Sink.consume(try P256.PrivateKey.generate().sharedSecret(with: peer)) },
            { Sink.consume(try WebPush.encrypt(payload, to: subscriber)) })
        report("P-256 keygen+ECDH (bare pair)", keygenECDH)
        report("RFC 8291 encrypt 2 KB", webPush)
        report("RFC 8291 encrypt 2 KB + parse subscriber", try timing.rate {
            Sink.consume(try WebPush.encrypt(payload, to: WebPushSubscriberKeys(p256dh: p256dh, auth: auth)))
        })

        let key = SecureRandom.bytes(32)
        let nonce = SecureRandom.bytes(12)
        report("AES-256-GCM seal 2 KB", try timing.rate { Sink.consume(try AESGCM.seal(payload, key: key, nonce: nonce)) })

        let es256 = ES256Signer(key: fixed)
        let signingInput = Array("eyJ0eXAiOiJKV1QiLCJhbGciOiJFUzI1NiJ9.eyJhdWQiOiJodHRwczovL2ZjbS5nb29nbGVhcGlzLmNvbSJ9".utf8)
        report("ES256 sign", try timing.rate { Sink.consume(try es256.sign(signingInput)) })

        print("ratio RFC 8291 encrypt / (keygen+ECDH)       \(String(format: "%.2f", ratio))  (target >= 0.80; median of per-round ratios, rounds alternated)")
    }
}
