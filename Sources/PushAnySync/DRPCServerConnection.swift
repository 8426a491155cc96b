import PushNet

/// What one unary DRPC call answers.
enum DRPCReply: Equatable {
    /// The encoded response message.
    case message([UInt8])
    /// An error frame: any-sync rpcerr code and text.
    case error(code: UInt64, message: String)
}

/// One yamux stream seen as an any-sync sub-connection (Spec/anysync-wire.md §6, §8): the Proto
/// handshake, then DRPC frames reassembled into packets, unary calls dispatched one after another.
/// Pure: bytes in, bytes out.
struct DRPCServerConnection {
    /// The largest DRPC packet (and frame) accepted.
    let maxMessageBytes: Int
    /// The largest Proto handshake frame.
    let maxHandshakeFrameBytes: Int

    private var buffer: [UInt8] = []
    private var handshakeDone = false
    /// The packet being reassembled from frames.
    private var packet: DRPCFrame?
    /// The newest DRPC stream id seen in an Invoke, its rpc name, and whether it was answered.
    private var currentStream: UInt64 = 0
    private var rpc: String?
    private var answered = true

    init(maxMessageBytes: Int, maxHandshakeFrameBytes: Int = AnySyncLimits().maxHandshakeFrameBytes) {
        self.maxMessageBytes = maxMessageBytes
        self.maxHandshakeFrameBytes = maxHandshakeFrameBytes
    }

    struct Result: Equatable {
        var output: [UInt8] = []
        /// Close this stream (after sending `output`).
        var close = false
    }

    /// Takes bytes from the client; answers what is complete. Throws on malformed input (the caller
    /// resets the stream).
    mutating func receive(_ bytes: [UInt8], dispatch: (String, [UInt8]) -> DRPCReply) throws(AnySyncWireError) -> Result {
        buffer += bytes
        var result = Result()
        if !handshakeDone {
            guard let (frame, consumed) = try HandshakeFrame.parse(buffer, maxPayload: maxHandshakeFrameBytes) else {
                guard buffer.count <= maxHandshakeFrameBytes + HandshakeFrame.headerSize else { throw .tooLarge("Proto frame") }
                return result
            }
            buffer.removeFirst(consumed)
            switch try ProtoHandshake.answer(to: frame) {
            case .accept(let reply):
                result.output += reply.encoded()
                handshakeDone = true
            case .refuse(let reply):
                result.output += reply.encoded()
                result.close = true
                return result
            }
        }
        var offset = 0
        while let (frame, consumed) = try DRPCFrame.parse(buffer[offset...], maxData: maxMessageBytes) {
            offset += consumed
            if let complete = try assemble(frame) { result.output += handle(complete, dispatch: dispatch) }
        }
        buffer.removeFirst(offset)
        guard buffer.count <= maxMessageBytes + 32 else { throw .tooLarge("DRPC frame") }
        return result
    }

    /// Adds a frame to the packet under assembly; returns the packet when its last frame arrived.
    private mutating func assemble(_ frame: DRPCFrame) throws(AnySyncWireError) -> DRPCFrame? {
        if var current = packet, current.stream == frame.stream, current.message == frame.message {
            guard current.kind == frame.kind else { throw .malformed("DRPC packet changed kind") }
            guard current.data.count + frame.data.count <= maxMessageBytes else { throw .tooLarge("DRPC packet") }
            current.data += frame.data
            packet = frame.done ? nil : current
            return frame.done ? current : nil
        }
        if let current = packet, (frame.stream, frame.message) < (current.stream, current.message) {
            throw .malformed("DRPC frame id went backwards")
        }
        packet = frame.done ? nil : frame
        return frame.done ? frame : nil
    }

    /// Acts on one complete packet; returns the frames to send.
    private mutating func handle(_ packet: DRPCFrame, dispatch: (String, [UInt8]) -> DRPCReply) -> [UInt8] {
        guard packet.stream >= currentStream else { return [] } // older streams: dropped, as Go does
        switch DRPCFrame.Kind(rawValue: packet.kind) {
        case .invoke:
            guard packet.stream > currentStream else { return [] }
            currentStream = packet.stream
            rpc = String(decoding: packet.data, as: UTF8.self)
            answered = false
        case .message:
            guard packet.stream == currentStream, let rpc, !answered else { return [] }
            answered = true
            switch dispatch(rpc, packet.data) {
            case .message(let body):
                return DRPCFrame(kind: .message, stream: currentStream, message: 1, data: body).encoded()
                    + DRPCFrame(kind: .closeSend, stream: currentStream, message: 2).encoded()
            case .error(let code, let message):
                return DRPCFrame(kind: .error, stream: currentStream, message: 1,
                                 data: DRPCErrorBody.encode(code: code, message: message)).encoded()
            }
        case .cancel, .close:
            if packet.stream == currentStream { answered = true }
        case .error, .closeSend, .invokeMetadata, nil:
            break // nothing to do for a unary server; unknown kinds are ignored
        }
        return []
    }
}
