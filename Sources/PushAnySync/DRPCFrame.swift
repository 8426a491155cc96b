/// A storj/drpc frame (Spec/anysync-wire.md §8.1):
/// `control:u8 ‖ uvarint(stream) ‖ uvarint(message) ‖ uvarint(len) ‖ data`, where the control byte
/// is `kind << 1 | done`, with bit 7 marking frames an old reader may ignore.
package struct DRPCFrame: Equatable {
    package enum Kind: UInt8 {
        case invoke = 1
        case message = 2
        case error = 3
        case cancel = 4
        case close = 5
        case closeSend = 6
        case invokeMetadata = 7
    }

    /// The raw kind (1–63); unknown kinds are kept so the reader can decide.
    package var kind: UInt8
    package var stream: UInt64
    package var message: UInt64
    package var data: [UInt8]
    var done: Bool = true
    var control: Bool = false

    package init(kind: Kind, stream: UInt64, message: UInt64, data: [UInt8] = []) {
        self.init(rawKind: kind.rawValue, stream: stream, message: message, data: data)
    }

    package init(rawKind: UInt8, stream: UInt64, message: UInt64, data: [UInt8], done: Bool = true, control: Bool = false) {
        self.kind = rawKind
        self.stream = stream
        self.message = message
        self.data = data
        self.done = done
        self.control = control
    }

    package func encoded() -> [UInt8] {
        var out: [UInt8] = [kind << 1 | (done ? 1 : 0) | (control ? 0x80 : 0)]
        Varint.append(stream, to: &out)
        Varint.append(message, to: &out)
        Varint.append(UInt64(data.count), to: &out)
        return out + data
    }

    /// Parses one frame from the front of `bytes`: nil while more bytes are needed; throws
    /// `.tooLarge` for a frame over `maxData` bytes.
    package static func parse(_ bytes: ArraySlice<UInt8>, maxData: Int) throws(AnySyncWireError) -> (frame: DRPCFrame, consumed: Int)? {
        guard let first = bytes.first else { return nil }
        var offset = bytes.startIndex + 1
        guard let stream = try varint(bytes, &offset), let message = try varint(bytes, &offset),
              let length = try varint(bytes, &offset) else { return nil }
        guard length <= UInt64(maxData) else { throw .tooLarge("DRPC frame of \(length) bytes") }
        guard bytes.endIndex - offset >= Int(length) else { return nil }
        let frame = DRPCFrame(rawKind: first >> 1 & 0x3f, stream: stream, message: message,
                              data: Array(bytes[offset..<offset + Int(length)]), done: first & 1 == 1, control: first & 0x80 != 0)
        return (frame, offset + Int(length) - bytes.startIndex)
    }

    /// A varint, or nil when the bytes end inside it.
    private static func varint(_ bytes: ArraySlice<UInt8>, _ offset: inout Int) throws(AnySyncWireError) -> UInt64? {
        do {
            return try Varint.read(bytes, at: &offset)
        } catch .truncated {
            return nil
        }
    }
}

/// `Error.data` = `code:u64 big-endian ‖ UTF-8 message` (Spec/anysync-wire.md §8.5).
enum DRPCErrorBody {
    static func encode(code: UInt64, message: String) -> [UInt8] {
        (0..<8).map { UInt8(code >> (56 - 8 * UInt64($0)) & 0xff) } + Array(message.utf8)
    }
}
