import PushNet

/// The server side of a hashicorp/yamux session (Spec/anysync-wire.md §5), pure: frames in, bytes out.
/// Each accepted stream carries a `DRPCServerConnection`; calls are answered as they complete.
struct YamuxSession {
    static let initialWindow = UInt32(AnySyncLimits.yamuxWindow)

    /// `anysync.maxStreams`, `anysync.maxFrameBytes`, `anysync.maxHandshakeFrameBytes`,
    /// `limits.maxBodyBytes` (PROTOCOL §7).
    struct Limits: Sendable {
        /// Open streams per session; a SYN beyond is reset.
        var maxStreams = AnySyncLimits().maxStreams
        /// The largest Data frame; larger is a protocol error (GoAway). At most the window.
        var maxFrameBytes = AnySyncLimits().maxFrameBytes
        /// The largest Proto handshake frame at a stream's start.
        var maxHandshakeFrameBytes = AnySyncLimits().maxHandshakeFrameBytes
        /// The largest DRPC packet, and so a stream's reassembly buffer.
        var maxMessageBytes = 4 * 1024 * 1024

        /// Replies a stream may hold while the client grants no window: one window's worth plus
        /// one packet. A client that keeps calling without reading has its stream reset.
        var maxReplyBacklogBytes: Int { maxMessageBytes + Int(YamuxSession.initialWindow) }
    }

    private struct Stream {
        var connection: DRPCServerConnection
        /// Bytes the client may still send before our next WindowUpdate.
        var receiveWindow = YamuxSession.initialWindow
        /// Bytes received and processed but not yet returned as credit.
        var consumed: UInt32 = 0
        /// Bytes we may still send.
        var sendWindow = YamuxSession.initialWindow
        var pending: [UInt8] = []
        var finAfterPending = false
        var finSent = false
        var finReceived = false
    }

    /// What the I/O loop does after a frame.
    enum Verdict: Equatable {
        case keepGoing
        /// Send the output, then close the session (GoAway already in the output when due).
        case close
    }

    let limits: Limits
    private var streams: [UInt32: Stream] = [:]

    init(limits: Limits = Limits()) { self.limits = limits }

    var openStreams: Int { streams.count }

    /// Handles one frame (header + its Data payload), appending what to send to `output`.
    mutating func handle(_ header: YamuxHeader, payload: [UInt8], output: inout [UInt8],
                         dispatch: (String, [UInt8]) -> DRPCReply) -> Verdict {
        switch header.kind {
        case .ping:
            if header.flags.contains(.syn) {
                output += YamuxHeader(kind: .ping, flags: .ack, streamID: 0, length: header.length).encoded()
            }
            return .keepGoing
        case .goAway:
            return .close
        case .data, .windowUpdate:
            return handleStreamFrame(header, payload: payload, output: &output, dispatch: dispatch)
        }
    }

    /// A GoAway frame.
    static func goAway(_ code: YamuxHeader.GoAwayCode) -> [UInt8] {
        YamuxHeader(kind: .goAway, flags: [], streamID: 0, length: code.rawValue).encoded()
    }

    private mutating func handleStreamFrame(_ header: YamuxHeader, payload: [UInt8], output: inout [UInt8],
                                            dispatch: (String, [UInt8]) -> DRPCReply) -> Verdict {
        let id = header.streamID
        if header.flags.contains(.syn) {
            guard id % 2 == 1, streams[id] == nil else {
                output += Self.goAway(.protocolError)
                return .close
            }
            guard streams.count < limits.maxStreams else {
                output += YamuxHeader(kind: .windowUpdate, flags: .rst, streamID: id, length: 0).encoded()
                return .keepGoing
            }
            streams[id] = Stream(connection: DRPCServerConnection(maxMessageBytes: limits.maxMessageBytes,
                                                             maxHandshakeFrameBytes: limits.maxHandshakeFrameBytes))
            output += YamuxHeader(kind: .windowUpdate, flags: .ack, streamID: id, length: 0).encoded()
        }
        guard var stream = streams[id] else { return .keepGoing } // unknown stream: discarded, as Go does
        if header.flags.contains(.rst) {
            streams[id] = nil
            return .keepGoing
        }
        if header.kind == .windowUpdate {
            stream.sendWindow = stream.sendWindow &+ header.length
        } else if !payload.isEmpty {
            guard UInt32(payload.count) <= stream.receiveWindow else {
                output += Self.goAway(.protocolError)
                return .close
            }
            stream.receiveWindow -= UInt32(payload.count)
            stream.consumed += UInt32(payload.count)
            do {
                let result = try stream.connection.receive(payload, dispatch: dispatch)
                stream.pending += result.output
                if result.close { stream.finAfterPending = true }
                guard stream.pending.count <= limits.maxReplyBacklogBytes else { throw AnySyncWireError.tooLarge("reply backlog") }
            } catch {
                output += YamuxHeader(kind: .windowUpdate, flags: .rst, streamID: id, length: 0).encoded()
                streams[id] = nil
                return .keepGoing
            }
            if stream.consumed >= Self.initialWindow / 2 {
                output += YamuxHeader(kind: .windowUpdate, flags: [], streamID: id, length: stream.consumed).encoded()
                stream.receiveWindow += stream.consumed
                stream.consumed = 0
            }
        }
        if header.flags.contains(.fin) {
            stream.finReceived = true
            stream.finAfterPending = true
        }
        flush(&stream, id: id, output: &output)
        streams[id] = stream.finSent && stream.finReceived ? nil : stream
        return .keepGoing
    }

    /// Sends what the window allows, then FIN once everything pending is out and a FIN is due.
    private func flush(_ stream: inout Stream, id: UInt32, output: inout [UInt8]) {
        while !stream.pending.isEmpty && stream.sendWindow > 0 {
            let count = min(stream.pending.count, Int(stream.sendWindow))
            output += YamuxHeader(kind: .data, flags: [], streamID: id, length: UInt32(count)).encoded()
            output += stream.pending.prefix(count)
            stream.pending.removeFirst(count)
            stream.sendWindow -= UInt32(count)
        }
        if stream.pending.isEmpty && stream.finAfterPending && !stream.finSent {
            output += YamuxHeader(kind: .windowUpdate, flags: .fin, streamID: id, length: 0).encoded()
            stream.finSent = true
        }
    }
}
