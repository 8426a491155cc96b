/// The libp2p TLS certificate extension (Spec/anysync-wire.md §3.2): OID 1.3.6.1.4.1.53594.1.1 with
/// `SignedKey ::= SEQUENCE { publicKey OCTET STRING, signature OCTET STRING }` (DER).
enum SignedKeyExtension {
    static let oid = "1.3.6.1.4.1.53594.1.1"
    /// What the host key signs, followed by the DER SubjectPublicKeyInfo of the certificate key.
    static let signaturePrefix = Array("libp2p-tls-handshake:".utf8)

    struct Value: Equatable {
        /// The libp2p `PublicKey` protobuf of the host key.
        var publicKey: [UInt8]
        var signature: [UInt8]
    }

    static func encode(_ value: Value) -> [UInt8] {
        let body = der(tag: 0x04, value.publicKey) + der(tag: 0x04, value.signature)
        return der(tag: 0x30, body)
    }

    static func decode(_ bytes: [UInt8]) throws(AnySyncWireError) -> Value {
        var outer = 0
        let body = try readTLV(bytes[...], tag: 0x30, at: &outer)
        guard outer == bytes.count else { throw .malformed("bytes after SignedKey") }
        var offset = body.startIndex
        let publicKey = try readTLV(body, tag: 0x04, at: &offset)
        let signature = try readTLV(body, tag: 0x04, at: &offset)
        guard offset == body.endIndex else { throw .malformed("extra SignedKey fields") }
        return Value(publicKey: Array(publicKey), signature: Array(signature))
    }

    private static func der(tag: UInt8, _ content: [UInt8]) -> [UInt8] {
        let n = content.count
        let length: [UInt8]
        if n < 0x80 {
            length = [UInt8(n)]
        } else if n < 0x100 {
            length = [0x81, UInt8(n)]
        } else {
            length = [0x82, UInt8(n >> 8), UInt8(n & 0xff)]
        }
        return [tag] + length + content
    }

    /// One DER TLV of `tag` at `offset` (definite, minimal lengths up to 64 KiB).
    private static func readTLV(_ bytes: ArraySlice<UInt8>, tag: UInt8, at offset: inout Int) throws(AnySyncWireError) -> ArraySlice<UInt8> {
        guard bytes.endIndex - offset >= 2 else { throw .truncated }
        guard bytes[offset] == tag else { throw .malformed("DER tag \(bytes[offset]), expected \(tag)") }
        var length = Int(bytes[offset + 1])
        offset += 2
        if length >= 0x80 {
            let count = length & 0x7f
            guard (1...2).contains(count), bytes.endIndex - offset >= count else { throw .malformed("DER length") }
            length = 0
            for _ in 0..<count {
                length = length << 8 | Int(bytes[offset])
                offset += 1
            }
            guard length >= 0x80, count == 1 || length >= 0x100 else { throw .malformed("non-minimal DER length") }
        }
        guard bytes.endIndex - offset >= length else { throw .truncated }
        defer { offset += length }
        return bytes[offset..<offset + length]
    }
}
