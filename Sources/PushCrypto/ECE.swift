/// The `aes128gcm` HTTP content coding: AES-128-GCM records of a fixed size under a
/// content key and nonce derived from the input keying material and a per-message salt.
/// - SeeAlso: RFC 8188.
public enum ECE {
    public static let saltSize = 16
    public static let tagSize = 16
    /// A record holds at least its delimiter and the tag.
    public static let minimumRecordSize = 18
    static let contentKeyInfo: [UInt8] = Array("Content-Encoding: aes128gcm\0".utf8)
    static let nonceInfo: [UInt8] = Array("Content-Encoding: nonce\0".utf8)
    static let delimiter: UInt8 = 0x01
    static let lastDelimiter: UInt8 = 0x02

    /// The content encryption key (16 bytes) and nonce base (12 bytes) for `ikm` and `salt`:
    /// `PRK = HMAC(salt, IKM)`, `CEK = HMAC(PRK, cek_info ‖ 1)[0..16]`,
    /// `NONCE = HMAC(PRK, nonce_info ‖ 1)[0..12]` (RFC 8188 §2.2, §2.3).
    static func contentKeys(ikm: [UInt8], salt: [UInt8]) throws -> (key: [UInt8], nonce: [UInt8]) {
        var prk = try HKDFSHA256.extract(salt: salt, ikm: ikm)
        defer { ConstantTime.wipe(&prk) }
        var keyBlock = try SHA256HMAC.authenticate(key: prk, contentKeyInfo, [1])
        defer { ConstantTime.wipe(&keyBlock) }
        let nonceBlock = try SHA256HMAC.authenticate(key: prk, nonceInfo, [1])
        return (Array(keyBlock.prefix(16)), Array(nonceBlock.prefix(AESGCM.nonceSize)))
    }

    /// The nonce of record `sequence`: the nonce base XOR the 96-bit big-endian sequence number.
    static func recordNonce(_ base: [UInt8], sequence: Int) -> [UInt8] {
        var nonce = base
        var value = UInt64(sequence)
        var index = nonce.count - 1
        while value != 0 {
            nonce[index] ^= UInt8(truncatingIfNeeded: value)
            value >>= 8
            index -= 1
        }
        return nonce
    }

    /// Encrypts `plaintext` into header ‖ records. Each record carries up to
    /// `recordSize − 17` bytes of content; `padding` zero bytes are placed in the earliest
    /// records, before the data that follows them. The last record ends with delimiter 2,
    /// the others with 1.
    public static func encrypt(
        _ plaintext: [UInt8], ikm: [UInt8], salt: [UInt8], recordSize: Int = 4096, keyID: [UInt8] = [],
        padding: Int = 0
    ) throws -> [UInt8] {
        let header = try Header(salt: salt, recordSize: recordSize, keyID: keyID)
        guard padding >= 0 else { throw CryptoError.invalidRecord("negative padding") }
        var (key, nonceBase) = try contentKeys(ikm: ikm, salt: salt)
        defer { ConstantTime.wipe(&key) }
        let capacity = recordSize - 1 - tagSize
        var body = header.encoded
        var dataLeft = plaintext[...]
        var paddingLeft = padding
        var sequence = 0
        repeat {
            let pad = min(paddingLeft, capacity)
            let take = min(dataLeft.count, capacity - pad)
            paddingLeft -= pad
            var record = Array(dataLeft.prefix(take))
            dataLeft = dataLeft.dropFirst(take)
            let isLast = dataLeft.isEmpty && paddingLeft == 0
            record.append(isLast ? lastDelimiter : delimiter)
            record += repeatElement(0, count: pad)
            body += try AESGCM.seal(record, key: key, nonce: recordNonce(nonceBase, sequence: sequence))
            ConstantTime.wipe(&record)
            sequence += 1
            if isLast { break }
        } while true
        return body
    }

    /// Decrypts a whole `aes128gcm` body with the input keying material `ikm`.
    public static func decrypt(_ body: [UInt8], ikm: [UInt8]) throws -> [UInt8] {
        try decrypt(body) { _ in ikm }
    }

    /// Decrypts a whole body, asking `keyForID` for the input keying material of the
    /// header's key id. Fails on a bad tag (`authenticationFailed`), a record shorter than
    /// 17 bytes, a record with no non-zero byte, or a wrong delimiter: 2 ends the last record
    /// and 1 every other, so a body cut at a record boundary is caught (`invalidRecord`).
    public static func decrypt(_ body: [UInt8], keyForID: ([UInt8]) throws -> [UInt8]) throws -> [UInt8] {
        let header = try Header(parsing: body)
        var ikm = try keyForID(header.keyID)
        defer { ConstantTime.wipe(&ikm) }
        var (key, nonceBase) = try contentKeys(ikm: ikm, salt: header.salt)
        defer { ConstantTime.wipe(&key) }
        var offset = header.size
        guard offset < body.count else { throw CryptoError.invalidRecord("no records") }
        var plaintext = [UInt8]()
        var sequence = 0
        while offset < body.count {
            let end = min(offset + header.recordSize, body.count)
            let isLast = end == body.count
            guard end - offset > tagSize else { throw CryptoError.invalidRecord("truncated record") }
            var record = try AESGCM.open(
                Array(body[offset..<end]), key: key, nonce: recordNonce(nonceBase, sequence: sequence))
            defer { ConstantTime.wipe(&record) }
            guard let delimiterIndex = record.lastIndex(where: { $0 != 0 }) else {
                throw CryptoError.invalidRecord("record without delimiter")
            }
            guard record[delimiterIndex] == (isLast ? lastDelimiter : delimiter) else {
                throw CryptoError.invalidRecord(isLast ? "last record does not end with delimiter 2" : "record delimiter is not 1")
            }
            plaintext += record[..<delimiterIndex]
            offset = end
            sequence += 1
        }
        return plaintext
    }
}
