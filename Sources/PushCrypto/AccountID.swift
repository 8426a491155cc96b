/// An any-sync account id: the strkey form of an Ed25519 public key.
///
/// `base58(0x5b ‖ pub32 ‖ crc16)` where crc16 is CRC-16/XMODEM (poly 0x1021, init 0)
/// of `0x5b ‖ pub32`, appended little-endian. Every id starts with `A`.
public struct AccountID: Ed25519Identity, Hashable {
    public static let versionByte: UInt8 = 0x5b

    public let publicKey: [UInt8]
    /// The base58 text form.
    public let string: String

    public init(publicKey: [UInt8]) throws {
        self.publicKey = try Ed25519.checkedPublicKey(publicKey)
        var body = [Self.versionByte] + publicKey
        let crc = CRC16.xmodem(body)
        body.append(UInt8(crc & 0xff))
        body.append(UInt8(crc >> 8))
        self.string = Base58.encode(body)
    }

    /// Parses and checks the version byte and checksum.
    public init(_ text: String) throws {
        let raw = try Base58.decode(text)
        guard raw.count == 35 else { throw CryptoError.invalidEncoding("account id: wrong length") }
        guard raw[0] == Self.versionByte else { throw CryptoError.invalidVersionByte }
        let crc = CRC16.xmodem(raw[0..<33])
        guard raw[33] == UInt8(crc & 0xff), raw[34] == UInt8(crc >> 8) else { throw CryptoError.invalidChecksum }
        self.publicKey = Array(raw[1..<33])
        self.string = text
    }
}

/// CRC-16/XMODEM: polynomial 0x1021, initial value 0, no reflection, no final xor.
public enum CRC16 {
    public static func xmodem<B: Sequence>(_ bytes: B) -> UInt16 where B.Element == UInt8 {
        var crc: UInt16 = 0
        for byte in bytes {
            crc ^= UInt16(byte) << 8
            for _ in 0..<8 {
                crc = (crc & 0x8000) != 0 ? (crc << 1) ^ 0x1021 : crc << 1
            }
        }
        return crc
    }
}
