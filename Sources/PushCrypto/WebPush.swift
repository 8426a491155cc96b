/// Web Push message encryption: one `aes128gcm` record to a subscriber's P-256 key,
/// with a fresh application-server key pair and salt for every message.
/// - SeeAlso: RFC 8291, RFC 8188.
public enum WebPush {
    /// The record size written in the header.
    public static let recordSize = 4096
    /// 4096 − 86 (header) − 1 (delimiter) − 16 (tag) (RFC 8291 §4).
    public static let maxPlaintextSize = 3993
    /// `salt(16) ‖ rs(4) ‖ idlen(1) ‖ as_public(65)`.
    public static let headerSize = 86

    static let keyInfoLabel: [UInt8] = Array("WebPush: info\0".utf8)

    /// Encrypts `plaintext` (at most 3993 bytes) to `subscriber`, with a new ephemeral
    /// key pair and a random salt. Returns the request body (header ‖ record).
    public static func encrypt(_ plaintext: [UInt8], to subscriber: WebPushSubscriberKeys) throws -> [UInt8] {
        try encrypt(plaintext, to: subscriber, applicationServerKey: .generate(), salt: SecureRandom.bytes(ECE.saltSize))
    }

    /// Encrypts with the given application-server key and salt: for test vectors only.
    /// Reusing either for two messages breaks the encryption.
    public static func encrypt(
        _ plaintext: [UInt8], to subscriber: WebPushSubscriberKeys, applicationServerKey: P256.PrivateKey,
        salt: [UInt8]
    ) throws -> [UInt8] {
        guard plaintext.count <= maxPlaintextSize else {
            throw CryptoError.plaintextTooLarge(limit: maxPlaintextSize, got: plaintext.count)
        }
        guard salt.count == ECE.saltSize else { throw CryptoError.invalidKeyLength(expected: ECE.saltSize, got: salt.count) }
        let asPublic = try applicationServerKey.publicKeyRawRepresentation
        var secret = try applicationServerKey.sharedSecret(with: subscriber.p256dh)
        defer { ConstantTime.wipe(&secret) }
        var ikm = try inputKeyingMaterial(
            sharedSecret: secret, auth: subscriber.auth, keyInfoPrefix: subscriber.keyInfoPrefix, asPublic: asPublic)
        defer { ConstantTime.wipe(&ikm) }
        var (key, nonce) = try ECE.contentKeys(ikm: ikm, salt: salt)
        defer { ConstantTime.wipe(&key) }

        var record = plaintext
        record.append(ECE.lastDelimiter)
        defer { ConstantTime.wipe(&record) }
        var body = salt
        body.reserveCapacity(headerSize + record.count + ECE.tagSize)
        body += [0, 0, UInt8(recordSize >> 8), 0, UInt8(P256.publicKeySize)]
        body += asPublic
        body += try AESGCM.seal(record, key: key, nonce: nonce)
        return body
    }

    /// Decrypts a Web Push body with the subscriber's private key and auth secret (the
    /// receiver's side; used by tests and the receiver helper). The header's key id must be
    /// the 65-byte application-server public key.
    public static func decrypt(_ body: [UInt8], privateKey: P256.PrivateKey, auth: [UInt8]) throws -> [UInt8] {
        guard auth.count == WebPushSubscriberKeys.authSize else {
            throw CryptoError.invalidKeyLength(expected: WebPushSubscriberKeys.authSize, got: auth.count)
        }
        let header = try ECE.Header(parsing: body)
        guard header.keyID.count == P256.publicKeySize else {
            throw CryptoError.invalidRecord("key id is not a 65-byte P-256 public key")
        }
        let asPublic = try P256.PublicKey(rawRepresentation: header.keyID)
        var secret = try privateKey.sharedSecret(with: asPublic)
        defer { ConstantTime.wipe(&secret) }
        var ikm = try inputKeyingMaterial(
            sharedSecret: secret, auth: auth,
            keyInfoPrefix: keyInfoLabel + (try privateKey.publicKeyRawRepresentation), asPublic: header.keyID)
        defer { ConstantTime.wipe(&ikm) }
        return try ECE.decrypt(body, ikm: ikm)
    }

    /// RFC 8291 §3.3–3.4: `PRK_key = HMAC(auth, ecdh_secret)`,
    /// `IKM = HMAC(PRK_key, "WebPush: info" ‖ 0 ‖ ua_public ‖ as_public ‖ 1)`.
    static func inputKeyingMaterial(
        sharedSecret: [UInt8], auth: [UInt8], keyInfoPrefix: [UInt8], asPublic: [UInt8]
    ) throws -> [UInt8] {
        var prkKey = try SHA256HMAC.authenticate(key: auth, sharedSecret)
        defer { ConstantTime.wipe(&prkKey) }
        return try SHA256HMAC.authenticate(key: prkKey, keyInfoPrefix, asPublic, [1])
    }
}
