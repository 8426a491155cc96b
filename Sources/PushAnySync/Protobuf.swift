/// The few protobuf wire rules the any-sync messages need: varint and length-delimited fields,
/// read leniently (unknown fields skipped, last scalar wins, packed or unpacked repeats).
package enum Protobuf {
    /// One field as read from the wire.
    package enum Value: Equatable {
        case varint(UInt64)
        case bytes([UInt8])
        /// fixed32/fixed64: kept only to be skipped.
        case fixed
    }

    /// Every field of `bytes`, in order.
    package static func fields(_ bytes: [UInt8]) throws(AnySyncWireError) -> [(number: Int, value: Value)] {
        var out: [(number: Int, value: Value)] = []
        let slice = bytes[...]
        var offset = 0
        while offset < slice.endIndex {
            let key = try Varint.read(slice, at: &offset)
            let number = Int(truncatingIfNeeded: key >> 3)
            guard number > 0, number < (1 << 29) else { throw .malformed("protobuf field number") }
            switch key & 7 {
            case 0:
                out.append((number, .varint(try Varint.read(slice, at: &offset))))
            case 1, 5:
                let width = key & 7 == 1 ? 8 : 4
                guard slice.endIndex - offset >= width else { throw .truncated }
                offset += width
                out.append((number, .fixed))
            case 2:
                let length = try Varint.read(slice, at: &offset)
                guard length <= UInt64(slice.endIndex - offset) else { throw .truncated }
                let end = offset + Int(length)
                out.append((number, .bytes(Array(slice[offset..<end]))))
                offset = end
            default:
                throw .malformed("protobuf wire type \(key & 7)")
            }
        }
        return out
    }

    /// The last varint of field `number` (0 when absent, as proto3 reads it).
    static func varint(_ fields: [(number: Int, value: Value)], _ number: Int) throws(AnySyncWireError) -> UInt64 {
        var result: UInt64 = 0
        for field in fields where field.number == number {
            guard case .varint(let v) = field.value else { throw .malformed("field \(number) is not a varint") }
            result = v
        }
        return result
    }

    /// The last bytes of field `number`, nil when absent.
    package static func bytes(_ fields: [(number: Int, value: Value)], _ number: Int) throws(AnySyncWireError) -> [UInt8]? {
        var result: [UInt8]?
        for field in fields where field.number == number {
            guard case .bytes(let b) = field.value else { throw .malformed("field \(number) is not length-delimited") }
            result = b
        }
        return result
    }

    /// Every occurrence of a length-delimited field `number` (a repeated message).
    static func repeatedBytes(_ fields: [(number: Int, value: Value)], _ number: Int) throws(AnySyncWireError) -> [[UInt8]] {
        var result: [[UInt8]] = []
        for field in fields where field.number == number {
            guard case .bytes(let b) = field.value else { throw .malformed("field \(number) is not length-delimited") }
            result.append(b)
        }
        return result
    }

    /// A repeated varint field, packed or not.
    static func repeatedVarints(_ fields: [(number: Int, value: Value)], _ number: Int) throws(AnySyncWireError) -> [UInt64] {
        var result: [UInt64] = []
        for field in fields where field.number == number {
            switch field.value {
            case .varint(let v): result.append(v)
            case .bytes(let packed):
                var offset = 0
                while offset < packed.count { result.append(try Varint.read(packed[...], at: &offset)) }
            case .fixed: throw .malformed("field \(number) is not a varint")
            }
        }
        return result
    }

    /// The UTF-8 text of a string field ("" when absent). Invalid UTF-8 is repaired, not refused:
    /// the reference node accepts it too.
    static func string(_ fields: [(number: Int, value: Value)], _ number: Int) throws(AnySyncWireError) -> String {
        String(decoding: try bytes(fields, number) ?? [], as: UTF8.self)
    }

    // MARK: writing (proto3: zero values are omitted by the callers)

    package static func appendVarint(_ number: Int, _ value: UInt64, to out: inout [UInt8]) {
        Varint.append(UInt64(number << 3), to: &out)
        Varint.append(value, to: &out)
    }

    package static func appendBytes(_ number: Int, _ value: [UInt8], to out: inout [UInt8]) {
        Varint.append(UInt64(number << 3 | 2), to: &out)
        Varint.append(UInt64(value.count), to: &out)
        out += value
    }
}
