/// A hashicorp/yamux frame header (Spec/anysync-wire.md §5.2): 12 bytes big-endian,
/// `version=0 ‖ type ‖ flags:u16 ‖ streamID:u32 ‖ length:u32`.
package struct YamuxHeader: Equatable {
    package enum Kind: UInt8 {
        case data = 0
        case windowUpdate = 1
        case ping = 2
        case goAway = 3
    }

    package struct Flags: OptionSet, Equatable {
        package let rawValue: UInt16
        package init(rawValue: UInt16) { self.rawValue = rawValue }
        package static let syn = Flags(rawValue: 1)
        package static let ack = Flags(rawValue: 2)
        package static let fin = Flags(rawValue: 4)
        package static let rst = Flags(rawValue: 8)
    }

    /// GoAway codes.
    enum GoAwayCode: UInt32 {
        case normal = 0
        case protocolError = 1
        case internalError = 2
    }

    package static let size = 12

    package var kind: Kind
    package var flags: Flags
    package var streamID: UInt32
    /// Data: payload length; WindowUpdate: delta; Ping: opaque value; GoAway: code.
    package var length: UInt32

    package init(kind: Kind, flags: Flags, streamID: UInt32, length: UInt32) {
        self.kind = kind
        self.flags = flags
        self.streamID = streamID
        self.length = length
    }

    package func encoded() -> [UInt8] {
        [0, kind.rawValue, UInt8(flags.rawValue >> 8), UInt8(flags.rawValue & 0xff)]
            + Self.bigEndian(streamID) + Self.bigEndian(length)
    }

    /// Parses the first 12 bytes of `bytes` (nil when fewer are there).
    package static func parse(_ bytes: ArraySlice<UInt8>) throws(AnySyncWireError) -> YamuxHeader? {
        guard bytes.count >= size else { return nil }
        let b = bytes.startIndex
        guard bytes[b] == 0 else { throw .malformed("yamux version \(bytes[b])") }
        guard let kind = Kind(rawValue: bytes[b + 1]) else { throw .malformed("yamux frame type \(bytes[b + 1])") }
        let flags = Flags(rawValue: UInt16(bytes[b + 2]) << 8 | UInt16(bytes[b + 3]))
        return YamuxHeader(kind: kind, flags: flags, streamID: word(bytes, b + 4), length: word(bytes, b + 8))
    }

    private static func word(_ bytes: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
        UInt32(bytes[at]) << 24 | UInt32(bytes[at + 1]) << 16 | UInt32(bytes[at + 2]) << 8 | UInt32(bytes[at + 3])
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }
}
