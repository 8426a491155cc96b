extension ECE {
    /// The `aes128gcm` header: `salt(16) ‖ rs(4, big-endian) ‖ idlen(1) ‖ keyid(idlen)`.
    /// - SeeAlso: RFC 8188 §2.1.
    public struct Header: Equatable, Sendable {
        public let salt: [UInt8]
        public let recordSize: Int
        public let keyID: [UInt8]

        /// Throws unless the salt is 16 bytes, `recordSize` is 18 … 2³²−1 and the key id
        /// at most 255 bytes.
        public init(salt: [UInt8], recordSize: Int, keyID: [UInt8] = []) throws {
            guard salt.count == ECE.saltSize else { throw CryptoError.invalidKeyLength(expected: ECE.saltSize, got: salt.count) }
            guard recordSize >= ECE.minimumRecordSize, recordSize <= Int(UInt32.max) else {
                throw CryptoError.invalidRecord("record size \(recordSize) outside 18...4294967295")
            }
            guard keyID.count <= 255 else { throw CryptoError.invalidRecord("key id longer than 255 bytes") }
            self.salt = salt
            self.recordSize = recordSize
            self.keyID = keyID
        }

        /// Length of the encoded header.
        public var size: Int { ECE.saltSize + 5 + keyID.count }

        public var encoded: [UInt8] {
            var out = salt
            out.reserveCapacity(size)
            let rs = UInt32(recordSize)
            out += [UInt8(rs >> 24), UInt8(truncatingIfNeeded: rs >> 16), UInt8(truncatingIfNeeded: rs >> 8), UInt8(truncatingIfNeeded: rs)]
            out.append(UInt8(keyID.count))
            out += keyID
            return out
        }

        /// Reads the header at the start of `body`.
        public init(parsing body: [UInt8]) throws {
            guard body.count >= ECE.saltSize + 5 else { throw CryptoError.invalidRecord("truncated header") }
            let rs = body[16..<20].reduce(0) { $0 << 8 | Int($1) }
            let idLength = Int(body[20])
            guard body.count >= ECE.saltSize + 5 + idLength else { throw CryptoError.invalidRecord("truncated key id") }
            try self.init(salt: Array(body[0..<16]), recordSize: rs, keyID: Array(body[21..<(21 + idLength)]))
        }
    }
}
