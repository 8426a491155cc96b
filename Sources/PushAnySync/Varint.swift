/// Unsigned LEB128 varints, as protobuf and DRPC write them (at most 10 bytes for 64 bits).
enum Varint {
    static func append(_ value: UInt64, to out: inout [UInt8]) {
        var v = value
        while v >= 0x80 {
            out.append(UInt8(v & 0x7f) | 0x80)
            v >>= 7
        }
        out.append(UInt8(v))
    }

    static func encode(_ value: UInt64) -> [UInt8] {
        var out: [UInt8] = []
        append(value, to: &out)
        return out
    }

    /// Reads a varint at `offset`, advancing it. Throws `.truncated` when the bytes end first
    /// (callers buffering a stream wait for more) and `.malformed` past 10 bytes.
    static func read(_ bytes: ArraySlice<UInt8>, at offset: inout Int) throws(AnySyncWireError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while true {
            guard offset < bytes.endIndex else { throw .truncated }
            let byte = bytes[offset]
            offset += 1
            guard shift < 64, !(shift == 63 && byte > 1) else { throw .malformed("varint too long") }
            value |= UInt64(byte & 0x7f) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
    }
}
