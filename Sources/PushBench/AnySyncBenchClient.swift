import Foundation
import PushAnySync
import PushCrypto
import PushProtocol
import PushSupport

/// A minimal any-sync push client for `PushBench door` (not for production): TCP → libp2p TLS 1.3
/// → credentials handshake (Spec/anysync-wire.md §3–4), then one yamux stream with the per-stream proto
/// handshake and sequential DRPC unary calls (§5–8). Byte for byte what
/// `Tests/Interop/anysync_client.py` sends. One thread per client.
final class AnySyncBenchClient {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    private let channel: SocketChannel
    private var raw: [UInt8]
    private var drpcBuffer: [UInt8] = []
    private var nextCall: UInt64 = 1
    private var unacknowledged: UInt32 = 0
    private let streamID: UInt32 = 1
    private var streamOpen = false
    private let timeout: Double

    /// Connects and completes TLS and the credentials handshake as `account` (protocol `version`).
    init(port: Int, identity: AnySyncBenchIdentity, account: AccountKey, version: UInt64 = 8, timeout: Double = 10) throws {
        self.timeout = timeout
        channel = SocketChannel(fd: try Self.connect(port: port))
        let tls = try TLSSession(client: identity.context, channel: channel, deadline: Clocks.monotonicSeconds() + timeout)
        let serverPeerID = try tls.handshake()
        var payload: [UInt8] = []
        Protobuf.appendBytes(1, HandshakeCredentials.identity(publicKey: account.keyPair.publicKey), to: &payload)
        Protobuf.appendBytes(2, account.sign(Array((identity.peerID + serverPeerID).utf8)), to: &payload)
        var credentials: [UInt8] = []
        Protobuf.appendVarint(1, 1, to: &credentials)
        Protobuf.appendBytes(2, payload, to: &credentials)
        Protobuf.appendVarint(3, version, to: &credentials)
        Protobuf.appendBytes(4, Array("pushbench/any-sync:v0".utf8), to: &credentials)
        try tls.write(HandshakeFrame(kind: HandshakeFrame.Kind.credentials.rawValue, payload: credentials).encoded())
        var buffer: [UInt8] = []
        let answer = try Self.readFrame(tls, &buffer)
        guard answer.kind == HandshakeFrame.Kind.credentials.rawValue else { throw Failure(description: "handshake refused") }
        let fields = try Protobuf.fields(answer.payload)
        let signed = try Protobuf.fields(Protobuf.bytes(fields, 2) ?? [])
        guard let serverKey = CredentialsCheck.accountKey(fromIdentity: try Protobuf.bytes(signed, 1) ?? []),
              Ed25519.verify(signature: try Protobuf.bytes(signed, 2) ?? [],
                             message: Array((serverPeerID + identity.peerID).utf8), publicKey: serverKey) else {
            throw Failure(description: "server credentials do not verify")
        }
        try tls.write(HandshakeFrame(kind: HandshakeFrame.Kind.ack.rawValue, payload: []).encoded())
        let ack = try Self.readFrame(tls, &buffer)
        guard ack.kind == HandshakeFrame.Kind.ack.rawValue, ack.payload.isEmpty, buffer.isEmpty else {
            throw Failure(description: "handshake not acknowledged")
        }
        raw = try tls.abandon()
    }

    /// Closes the socket (no GoAway, as a dropped client would).
    func close() { channel.shutdown() }

    /// One unary call of `/pushproto.Push/<method>`; returns the response message body.
    func call(_ method: String, body: [UInt8]) throws -> [UInt8] {
        if !streamOpen { try openStream() }
        let call = nextCall
        nextCall += 1
        let packet = DRPCFrame(kind: .invoke, stream: call, message: 1, data: Array("/pushproto.Push/\(method)".utf8)).encoded()
            + DRPCFrame(kind: .message, stream: call, message: 2, data: body).encoded()
            + DRPCFrame(kind: .closeSend, stream: call, message: 3).encoded()
        try send(.data, [], length: UInt32(packet.count), payload: packet)
        var message: [UInt8]?
        while true {
            let frame = try nextDRPCFrame()
            guard frame.stream == call else { continue }
            switch frame.kind {
            case DRPCFrame.Kind.error.rawValue:
                throw Failure(description: "DRPC error: \(String(decoding: frame.data.dropFirst(8), as: UTF8.self))")
            case DRPCFrame.Kind.message.rawValue: message = frame.data
            case DRPCFrame.Kind.closeSend.rawValue, DRPCFrame.Kind.close.rawValue:
                guard let message else { throw Failure(description: "call closed without a message") }
                return message
            default: continue
            }
        }
    }

    /// `NotifyRequest{1 topics, 2 message, 3 groupId}` as the door reads it.
    static func notifyBody(_ request: NotifyRequest) -> [UInt8] {
        var topics: [UInt8] = []
        for topic in request.topics {
            var t: [UInt8] = []
            Protobuf.appendBytes(1, topic.spaceKey.publicKey, to: &t)
            Protobuf.appendBytes(2, Array(topic.topic.utf8), to: &t)
            Protobuf.appendBytes(3, topic.signature, to: &t)
            Protobuf.appendBytes(1, t, to: &topics)
        }
        var message: [UInt8] = []
        if let sealed = request.message {
            Protobuf.appendBytes(1, Array(sealed.keyId.utf8), to: &message)
            Protobuf.appendBytes(2, sealed.payload, to: &message)
            Protobuf.appendBytes(3, sealed.signature, to: &message)
        }
        var out: [UInt8] = []
        Protobuf.appendBytes(1, topics, to: &out)
        Protobuf.appendBytes(2, message, to: &out)
        return out
    }

    // MARK: - yamux

    private func openStream() throws {
        try send(.windowUpdate, .syn, length: 0)
        let proto: [UInt8] = [0x03, 0x04, 0x00, 0x00, 0x00, 0x12, 0x02, 0x01, 0x00]
        try send(.data, [], length: UInt32(proto.count), payload: proto)
        var acknowledged = false
        while !acknowledged || drpcBuffer.count < 8 {
            let (header, payload) = try readYamux()
            if header.kind == .windowUpdate, header.streamID == streamID, header.flags.contains(.ack) { acknowledged = true }
            if header.kind == .data, header.streamID == streamID { drpcBuffer += payload }
        }
        drpcBuffer.removeFirst(8)
        streamOpen = true
    }

    private func nextDRPCFrame() throws -> DRPCFrame {
        while true {
            if let (frame, used) = try DRPCFrame.parse(drpcBuffer[...], maxData: 4 << 20) {
                drpcBuffer.removeFirst(used)
                return frame
            }
            let (header, payload) = try readYamux()
            switch header.kind {
            case .ping where header.flags.contains(.syn): try send(.ping, .ack, stream: 0, length: header.length)
            case .goAway: throw Failure(description: "GoAway \(header.length)")
            case .data where header.streamID == streamID:
                drpcBuffer += payload
                unacknowledged += UInt32(payload.count)
                if unacknowledged >= 64 * 1024 {  // give the server its send window back
                    try send(.windowUpdate, [], length: unacknowledged)
                    unacknowledged = 0
                }
            default: break
            }
            if header.streamID == streamID, !header.flags.isDisjoint(with: [.fin, .rst]) {
                throw Failure(description: "stream closed by the server")
            }
        }
    }

    private func readYamux() throws -> (YamuxHeader, [UInt8]) {
        try fill(YamuxHeader.size)
        guard let header = try YamuxHeader.parse(raw[...]) else { throw Failure(description: "yamux header") }
        raw.removeFirst(YamuxHeader.size)
        guard header.kind == .data else { return (header, []) }
        try fill(Int(header.length))
        let payload = Array(raw[0..<Int(header.length)])
        raw.removeFirst(Int(header.length))
        return (header, payload)
    }

    private func fill(_ count: Int) throws {
        let deadline = Clocks.monotonicSeconds() + timeout
        while raw.count < count { raw += try channel.read(deadline: deadline) }
    }

    private func send(_ kind: YamuxHeader.Kind, _ flags: YamuxHeader.Flags, stream: UInt32? = nil, length: UInt32, payload: [UInt8] = []) throws {
        try channel.write(YamuxHeader(kind: kind, flags: flags, streamID: stream ?? streamID, length: length).encoded() + payload)
    }

    private static func readFrame(_ tls: TLSSession, _ buffer: inout [UInt8]) throws -> HandshakeFrame {
        while true {
            if let (frame, used) = try HandshakeFrame.parse(buffer) {
                buffer.removeFirst(used)
                return frame
            }
            buffer += try tls.read()
        }
    }

    private static func connect(port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw Failure(description: "socket: errno \(errno)") }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = in_addr_t(UInt32(0x7f00_0001).bigEndian)
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard rc == 0 else {
            Glibc.close(fd)
            throw Failure(description: "connect: errno \(errno)")
        }
        return fd
    }
}
