import Testing
@testable import PushCrypto

@Suite struct WebPushTests {
    let vector: [String: Any]
    let subscriber: WebPushSubscriberKeys
    let uaPrivate: P256.PrivateKey
    let auth: [UInt8]

    init() throws {
        vector = try VectorFile.object("rfc8291.json")
        subscriber = try WebPushSubscriberKeys(p256dh: vector.string("uaPublic"), auth: vector.string("auth"))
        uaPrivate = try P256.PrivateKey(base64URL: vector.string("uaPrivate"))
        auth = try vector.bytes("auth")
    }

    @Test func encryptWithInjectedKeysReproducesAppendixA() throws {
        let body = try WebPush.encrypt(
            Array(vector.string("plaintext").utf8), to: subscriber,
            applicationServerKey: P256.PrivateKey(base64URL: vector.string("asPrivate")), salt: vector.bytes("salt"))
        #expect(body == (try vector.bytes("body")))
        #expect(Array(body[86...]) == (try vector.bytes("record")))
    }

    @Test func intermediateValuesMatchAppendixA() throws {
        #expect(subscriber.keyInfoPrefix + (try vector.bytes("asPublic")) == (try vector.bytes("keyInfo")))
        let ikm = try WebPush.inputKeyingMaterial(
            sharedSecret: try vector.bytes("ecdhSecret"), auth: auth, keyInfoPrefix: subscriber.keyInfoPrefix,
            asPublic: try vector.bytes("asPublic"))
        #expect(ikm == (try vector.bytes("ikm")))
        #expect(HMACSHA256.authenticate(key: auth, data: try vector.bytes("ecdhSecret")) == (try vector.bytes("prkKey")))
        #expect(try HKDFSHA256.extract(salt: try vector.bytes("salt"), ikm: ikm) == (try vector.bytes("prk")))
        let keys = try ECE.contentKeys(ikm: ikm, salt: try vector.bytes("salt"))
        #expect(keys.key == (try vector.bytes("cek")))
        #expect(keys.nonce == (try vector.bytes("nonce")))
    }

    @Test func decryptsAppendixA() throws {
        let plaintext = try WebPush.decrypt(vector.bytes("body"), privateKey: uaPrivate, auth: auth)
        #expect(plaintext == Array(try vector.string("plaintext").utf8))
    }

    @Test func freshKeyAndSaltPerMessageAndRoundTrip() throws {
        let message = Array("hello".utf8)
        let first = try WebPush.encrypt(message, to: subscriber)
        let second = try WebPush.encrypt(message, to: subscriber)
        #expect(first[0..<16] != second[0..<16])
        #expect(first[21..<86] != second[21..<86])
        #expect(Array(first[16..<21]) == [0, 0, 0x10, 0, 65])
        #expect(first.count == 86 + message.count + 17)
        #expect(try WebPush.decrypt(first, privateKey: uaPrivate, auth: auth) == message)
        #expect(try WebPush.decrypt(second, privateKey: uaPrivate, auth: auth) == message)
    }

    @Test func plaintextLimitIs3993() throws {
        let body = try WebPush.encrypt([UInt8](repeating: 0x61, count: 3993), to: subscriber)
        #expect(body.count == 4096)
        #expect(try WebPush.decrypt(body, privateKey: uaPrivate, auth: auth).count == 3993)
        #expect(throws: CryptoError.plaintextTooLarge(limit: 3993, got: 3994)) {
            try WebPush.encrypt([UInt8](repeating: 0x61, count: 3994), to: self.subscriber)
        }
        #expect(try WebPush.decrypt(WebPush.encrypt([], to: subscriber), privateKey: uaPrivate, auth: auth) == [])
    }

    @Test func tamperingWrongKeysAndTruncationFail() throws {
        let body = try vector.bytes("body")
        for index in [86, 100, body.count - 17, body.count - 1] {
            var tampered = body
            tampered[index] ^= 0x01
            #expect(throws: CryptoError.authenticationFailed) { try WebPush.decrypt(tampered, privateKey: uaPrivate, auth: auth) }
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try WebPush.decrypt(body, privateKey: P256.PrivateKey.generate(), auth: auth)
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try WebPush.decrypt(body, privateKey: uaPrivate, auth: SecureRandom.bytes(16))
        }
        #expect(throws: CryptoError.authenticationFailed) {
            try WebPush.decrypt(Array(body.dropLast()), privateKey: uaPrivate, auth: auth)
        }
        #expect(throws: CryptoError.invalidRecord("no records")) {
            try WebPush.decrypt(Array(body.prefix(86)), privateKey: uaPrivate, auth: auth)
        }
        #expect(throws: CryptoError.invalidRecord("truncated key id")) {
            try WebPush.decrypt(Array(body.prefix(60)), privateKey: uaPrivate, auth: auth)
        }
        var offCurve = body
        offCurve[85] ^= 0x01  // last byte of as_public in the key id
        #expect(throws: CryptoError.invalidPoint) { try WebPush.decrypt(offCurve, privateKey: uaPrivate, auth: auth) }
        #expect(throws: CryptoError.invalidKeyLength(expected: 16, got: 15)) {
            try WebPush.decrypt(body, privateKey: uaPrivate, auth: Array(auth.prefix(15)))
        }
    }

    @Test func missingOrWrongDelimiterIsRefused() throws {
        // Same keys as the RFC message, but the record's content has no 0x02 at its end.
        let ikm = try vector.bytes("ikm")
        let keys = try ECE.contentKeys(ikm: ikm, salt: try vector.bytes("salt"))
        let header = Array(try vector.bytes("body").prefix(86))
        let plaintext = Array(try vector.string("plaintext").utf8)
        for (content, reason) in [
            (plaintext, "last record does not end with delimiter 2"),
            (plaintext + [0x01], "last record does not end with delimiter 2"),
            (plaintext + [0x01, 0, 0], "last record does not end with delimiter 2"),
            ([0, 0, 0], "record without delimiter"),
        ] {
            let body = header + (try AESGCM.seal(content, key: keys.key, nonce: keys.nonce))
            #expect(throws: CryptoError.invalidRecord(reason)) { try WebPush.decrypt(body, privateKey: uaPrivate, auth: auth) }
        }
        let good = header + (try AESGCM.seal(plaintext + [0x02, 0, 0, 0], key: keys.key, nonce: keys.nonce))
        #expect(try WebPush.decrypt(good, privateKey: uaPrivate, auth: auth) == plaintext)
    }

    @Test func subscriberKeysAreValidatedWithDistinctErrors() throws {
        let point = try vector.bytes("uaPublic")
        let authText = try vector.string("auth")
        var offCurve = point
        offCurve[64] ^= 0x01
        #expect(throws: CryptoError.invalidPoint) {
            try WebPushSubscriberKeys(p256dh: Base64.encodeURL(offCurve), auth: authText)
        }
        #expect(throws: CryptoError.invalidKeyLength(expected: 65, got: 64)) {
            try WebPushSubscriberKeys(p256dh: Base64.encodeURL(point.dropFirst()), auth: authText)
        }
        #expect(throws: CryptoError.invalidKeyLength(expected: 65, got: 33)) {
            try WebPushSubscriberKeys(p256dh: Base64.encodeURL([0x02 | (point[64] & 1)] + point[1...32]), auth: authText)
        }
        #expect(throws: CryptoError.invalidEncoding("p256dh is not base64url")) {
            try WebPushSubscriberKeys(p256dh: "not*base64", auth: authText)
        }
        #expect(throws: CryptoError.invalidKeyLength(expected: 16, got: 15)) {
            try WebPushSubscriberKeys(p256dh: Base64.encodeURL(point), auth: Base64.encodeURL(self.auth.prefix(15)))
        }
        #expect(throws: CryptoError.invalidEncoding("auth is not base64url")) {
            try WebPushSubscriberKeys(p256dh: Base64.encodeURL(point), auth: "!!")
        }
        // Padded base64url, as some browsers send it, is accepted.
        #expect(try WebPushSubscriberKeys(p256dh: Base64.encodeURL(point) + "=", auth: authText + "==") == subscriber)
    }
}
