import PushNet

/// The any-sync handshake framing (Spec/anysync-wire.md §4.1): `type:u8 ‖ length:u32 LE ‖ protobuf`.
/// Used inside TLS for Credentials/Ack and at the start of every yamux stream for Proto.
package struct HandshakeFrame: Equatable {
    package enum Kind: UInt8 {
        case credentials = 1
        case ack = 2
        case proto = 3
    }

    static let headerSize = 5

    package var kind: UInt8
    package var payload: [UInt8]

    package init(kind: UInt8, payload: [UInt8]) {
        self.kind = kind
        self.payload = payload
    }

    package func encoded() -> [UInt8] {
        let n = UInt32(payload.count)
        return [kind, UInt8(n & 0xff), UInt8(n >> 8 & 0xff), UInt8(n >> 16 & 0xff), UInt8(n >> 24)] + payload
    }

    /// Parses one frame from the front of `buffer`: nil while more bytes are needed.
    /// Throws `.tooLarge` when the announced length is over `maxPayload` (`anysync.maxHandshakeFrameBytes`,
    /// by default the reference's `sizeLimit` of 200 KiB), before any of it is buffered.
    package static func parse(_ buffer: [UInt8], maxPayload: Int = AnySyncLimits().maxHandshakeFrameBytes)
        throws(AnySyncWireError) -> (frame: HandshakeFrame, consumed: Int)? {
        guard buffer.count >= headerSize else { return nil }
        let length = Int(buffer[1]) | Int(buffer[2]) << 8 | Int(buffer[3]) << 16 | Int(buffer[4]) << 24
        guard length <= maxPayload else { throw .tooLarge("handshake frame of \(length) bytes") }
        guard buffer.count >= headerSize + length else { return nil }
        return (HandshakeFrame(kind: buffer[0], payload: Array(buffer[headerSize..<headerSize + length])), headerSize + length)
    }
}

/// `anyHandshake.Error` codes carried in an Ack.
enum HandshakeErrorCode: UInt64, Sendable {
    case null = 0
    case unexpected = 1
    case invalidCredentials = 2
    case unexpectedPayload = 3
    case skipVerifyNotAllowed = 4
    case deadlineExceeded = 5
    case incompatibleVersion = 6
    case incompatibleProto = 7
}

/// `Ack{error}`; `Null` encodes as an empty message (`02 00000000`).
struct HandshakeAck: Equatable {
    var error: HandshakeErrorCode

    func frame() -> HandshakeFrame {
        var out: [UInt8] = []
        if error != .null { Protobuf.appendVarint(1, error.rawValue, to: &out) }
        return HandshakeFrame(kind: HandshakeFrame.Kind.ack.rawValue, payload: out)
    }

    /// The error code of an Ack payload; unknown codes read as `unexpected`.
    static func decode(_ payload: [UInt8]) throws(AnySyncWireError) -> HandshakeErrorCode {
        HandshakeErrorCode(rawValue: try Protobuf.varint(Protobuf.fields(payload), 1)) ?? .unexpected
    }
}

/// `Credentials{type, payload, version, clientVersion}` with `PayloadSignedPeerIds{identity, sign}`.
package struct HandshakeCredentials: Equatable {
    /// `SignedPeerIds` = 1; `SkipVerify` = 0.
    var type: UInt64
    package var payload: [UInt8]
    package var version: UInt64
    var clientVersion: String

    static let signedPeerIds: UInt64 = 1

    package func frame() -> HandshakeFrame {
        var out: [UInt8] = []
        if type != 0 { Protobuf.appendVarint(1, type, to: &out) }
        if !payload.isEmpty { Protobuf.appendBytes(2, payload, to: &out) }
        if version != 0 { Protobuf.appendVarint(3, version, to: &out) }
        if !clientVersion.isEmpty { Protobuf.appendBytes(4, Array(clientVersion.utf8), to: &out) }
        return HandshakeFrame(kind: HandshakeFrame.Kind.credentials.rawValue, payload: out)
    }

    static func decode(_ bytes: [UInt8]) throws(AnySyncWireError) -> HandshakeCredentials {
        let fields = try Protobuf.fields(bytes)
        return HandshakeCredentials(type: try Protobuf.varint(fields, 1), payload: try Protobuf.bytes(fields, 2) ?? [],
                                    version: try Protobuf.varint(fields, 3), clientVersion: try Protobuf.string(fields, 4))
    }

    /// The any-sync account key proto `crypto.Key{Type=Ed25519Public(0, omitted), Data}` = `12 20 ‖ pub32`.
    package static func identity(publicKey: [UInt8]) -> [UInt8] { [0x12, 0x20] + publicKey }

    static func signedPeerIdsPayload(identity: [UInt8], sign: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        Protobuf.appendBytes(1, identity, to: &out)
        Protobuf.appendBytes(2, sign, to: &out)
        return out
    }
}

/// `Proto{proto, encodings}`: the per-stream handshake. The node always answers encoding None.
enum ProtoHandshake {
    /// `03 03000000 12 01 00`: DRPC with encoding None.
    static let replyNone = HandshakeFrame(kind: HandshakeFrame.Kind.proto.rawValue, payload: [0x12, 0x01, 0x00])

    enum Answer: Equatable {
        /// Send this frame and carry on with DRPC.
        case accept(HandshakeFrame)
        /// Send this frame and close the stream.
        case refuse(HandshakeFrame)
    }

    /// The reply to a client's Proto frame (Spec/anysync-wire.md §6).
    static func answer(to frame: HandshakeFrame) throws(AnySyncWireError) -> Answer {
        guard frame.kind == HandshakeFrame.Kind.proto.rawValue else { throw .malformed("expected a Proto frame") }
        let fields = try Protobuf.fields(frame.payload)
        guard try Protobuf.varint(fields, 1) == 0 else {
            return .refuse(HandshakeAck(error: .incompatibleProto).frame())
        }
        if try Protobuf.repeatedVarints(fields, 2).isEmpty { return .accept(HandshakeAck(error: .null).frame()) }
        return .accept(replyNone)
    }
}
