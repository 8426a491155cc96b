import PushCrypto
import Testing
@testable import PushAnySync

/// Spec/anysync-wire.md §14.4: yamux + DRPC for SetToken{Android, "tok-1"} on a fresh session.
@Suite struct AnySyncYamuxDRPCTests {
    /// Feeds raw client bytes through header parsing into the session, as the connection loop does.
    static func run(_ session: inout YamuxSession, _ input: [UInt8],
                    dispatch: (String, [UInt8]) -> DRPCReply) throws -> (output: [UInt8], verdict: YamuxSession.Verdict) {
        var output: [UInt8] = []
        let progress = try session.handleFrames(in: input[...], output: &output, dispatch: dispatch)
        return (output, progress.verdict)
    }

    @Test func setTokenOnAFreshSession() throws {
        var session = YamuxSession()
        var calls: [(String, [UInt8])] = []
        let dispatch: (String, [UInt8]) -> DRPCReply = { calls.append(($0, $1)); return .message([]) }
        let open = WireVectors.hex("00 01 0001 00000001 00000000  00 00 0000 00000001 00000009 030400000012020100")
        let (opened, _) = try Self.run(&session, open, dispatch: dispatch)
        #expect(opened == WireVectors.hex("00 01 0002 00000001 00000000  00 00 0000 00000001 00000008 0303000000120100"))
        let call = WireVectors.hex("""
            00 00 0000 00000001 0000002d
            03 01 01 18 2f7075736870726f746f2e507573682f536574546f6b656e
            05 01 02 09 08011205746f6b2d31
            0d 01 03 00
            """)
        let (answered, _) = try Self.run(&session, call, dispatch: dispatch)
        #expect(calls.map(\.0) == ["/pushproto.Push/SetToken"])
        #expect(calls.first?.1 == WireVectors.hex("08011205746f6b2d31"))
        #expect(try PushWire.setToken(calls[0].1) == (1, "tok-1"))
        #expect(answered == WireVectors.hex("00 00 0000 00000001 00000008 05010100 0d010200"))
        // A late Close for the finished call is ignored; the next call uses DRPC stream 2.
        let close = WireVectors.hex("00 00 0000 00000001 00000004 0b010400")
        #expect(try Self.run(&session, close, dispatch: dispatch).output.isEmpty)
        let next = WireVectors.hex("""
            00 00 0000 00000001 0000002d
            03 02 01 18 2f7075736870726f746f2e507573682f536574546f6b656e
            05 02 02 09 08011205746f6b2d31
            0d 02 03 00
            """)
        let (second, _) = try Self.run(&session, next, dispatch: dispatch)
        #expect(calls.count == 2)
        #expect(second == WireVectors.hex("00 00 0000 00000001 00000008 05020100 0d020200"))
        // Ping and FIN.
        #expect(try Self.run(&session, WireVectors.hex("00 02 0001 00000000 00000000"), dispatch: dispatch).output
                == WireVectors.hex("00 02 0002 00000000 00000000"))
        #expect(try Self.run(&session, WireVectors.hex("00 01 0004 00000001 00000000"), dispatch: dispatch).output
                == WireVectors.hex("00 01 0004 00000001 00000000"))
        #expect(session.openStreams == 0)
    }

    @Test func errorFramesCarryTheBigEndianCodeAndText() {
        #expect(DRPCFrame(kind: .error, stream: 1, message: 1,
                          data: DRPCErrorBody.encode(code: 1201, message: "invalid signature")).encoded()
                == WireVectors.hex("07 01 01 19 00000000000004b1 696e76616c6964207369676e6174757265"))
    }

    @Test func framesSplitAcrossPacketsAreReassembled() throws {
        var connection = DRPCServerConnection(maxMessageBytes: 1024)
        var bodies: [[UInt8]] = []
        let dispatch: (String, [UInt8]) -> DRPCReply = { bodies.append($1); return .error(code: 1200, message: "x") }
        var input = HandshakeFrame(kind: 3, payload: [0x12, 0x02, 0x01, 0x00]).encoded()
        input += DRPCFrame(kind: .invoke, stream: 1, message: 1, data: Array("/pushproto.Push/Notify".utf8)).encoded()
        input += DRPCFrame(rawKind: 2, stream: 1, message: 2, data: [1, 2], done: false).encoded()
        input += DRPCFrame(rawKind: 2, stream: 1, message: 2, data: [3], done: true).encoded()
        var output: [UInt8] = []
        for byte in input { output += try connection.receive([byte], dispatch: dispatch).output } // one byte at a time
        #expect(bodies == [[1, 2, 3]])
        #expect(output.suffix(4 + 9) == ArraySlice(DRPCFrame(kind: .error, stream: 1, message: 1,
                                                             data: DRPCErrorBody.encode(code: 1200, message: "x")).encoded()))
    }

    @Test func malformedOrOversizedInputResetsTheStream() throws {
        var session = YamuxSession(limits: .init(maxStreams: 64, maxMessageBytes: 16))
        let dispatch: (String, [UInt8]) -> DRPCReply = { _, _ in .message([]) }
        _ = try Self.run(&session, WireVectors.hex("00 01 0001 00000001 00000000"), dispatch: dispatch)
        // A handshake frame of the wrong type, then a DRPC frame over the 16-byte limit on stream 3.
        let wrong = WireVectors.hex("00 00 0000 00000001 00000005 0200000000")
        #expect(try Self.run(&session, wrong, dispatch: dispatch).output == WireVectors.hex("00 01 0008 00000001 00000000"))
        let big = HandshakeFrame(kind: 3, payload: []).encoded() + DRPCFrame(kind: .message, stream: 1, message: 1,
                                                                           data: [UInt8](repeating: 0, count: 17)).encoded()
        let frame = WireVectors.hex("00 01 0001 00000003 00000000") + YamuxHeader(kind: .data, flags: [], streamID: 3,
                                                                                    length: UInt32(big.count)).encoded() + big
        let (out, verdict) = try Self.run(&session, frame, dispatch: dispatch)
        #expect(verdict == .keepGoing)
        #expect(out.suffix(12) == ArraySlice(WireVectors.hex("00 01 0008 00000003 00000000")))
        #expect(session.openStreams == 0)
    }

    /// A DRPC frame whose varint never ends (Go's drpc reader fails it at once): the stream is
    /// reset as soon as the varint runs past 10 bytes, whether the bytes come in one yamux frame
    /// or a few at a time, and other streams go on.
    @Test(arguments: [1, 4, 33])
    func anEndlessVarintResetsItsStreamAtOnce(chunk: Int) throws {
        var session = YamuxSession(limits: .init(maxStreams: 64, maxMessageBytes: 4096))
        let dispatch: (String, [UInt8]) -> DRPCReply = { _, _ in .message([]) }
        _ = try Self.run(&session, WireVectors.hex("00 01 0001 00000001 00000000"), dispatch: dispatch)
        let hostile = HandshakeFrame(kind: 3, payload: []).encoded() + [0x03] + [UInt8](repeating: 0xff, count: 32)
        var input = WireVectors.hex("00 01 0001 00000005 00000000")
        for start in stride(from: 0, to: hostile.count, by: chunk) {
            let piece = Array(hostile[start..<min(start + chunk, hostile.count)])
            input += YamuxHeader(kind: .data, flags: [], streamID: 5, length: UInt32(piece.count)).encoded() + piece
        }
        let (out, verdict) = try Self.run(&session, input, dispatch: dispatch)
        #expect(verdict == .keepGoing)
        #expect(out.suffix(12) == ArraySlice(WireVectors.hex("00 01 0008 00000005 00000000")), "RST on stream 5")
        #expect(session.openStreams == 1, "stream 1 stays open")
    }

    /// A client that keeps calling on a stream without granting window: replies queue up to one
    /// window plus one packet, then the stream is reset; the session and its other streams go on.
    @Test func aStreamWhoseRepliesPileUpUnreadIsReset() throws {
        var session = YamuxSession(limits: .init(maxStreams: 64, maxMessageBytes: 1024))
        let reply = [UInt8](repeating: 7, count: 100 * 1024)
        let dispatch: (String, [UInt8]) -> DRPCReply = { _, _ in .message(reply) }
        _ = try Self.run(&session, WireVectors.hex("00 01 0001 00000001 00000000"), dispatch: dispatch)
        var output: [UInt8] = []
        for call in 1...6 {
            var stream = call == 1 ? HandshakeFrame(kind: 3, payload: []).encoded() : []
            stream += DRPCFrame(kind: .invoke, stream: UInt64(call), message: 1, data: Array("/pushproto.Push/Subscriptions".utf8)).encoded()
            stream += DRPCFrame(kind: .message, stream: UInt64(call), message: 2).encoded()
            let frame = YamuxHeader(kind: .data, flags: [], streamID: 1, length: UInt32(stream.count)).encoded() + stream
            output += try Self.run(&session, frame, dispatch: dispatch).output
            // 100 KiB per call: 2.56 calls fill the 256 KiB window, the backlog may hold 257 KiB more, so
            // the sixth call's reply is one too many.
            #expect(session.openStreams == (call < 6 ? 1 : 0), "after call \(call)")
        }
        #expect(output.suffix(12) == ArraySlice(WireVectors.hex("00 01 0008 00000001 00000000")), "RST on stream 1")
        #expect(try Self.run(&session, WireVectors.hex("00 01 0001 00000003 00000000"), dispatch: dispatch).output
                == WireVectors.hex("00 01 0002 00000003 00000000"), "a new stream is still accepted")
    }

    @Test func sessionErrorsAnswerGoAway() throws {
        var session = YamuxSession(limits: .init(maxStreams: 1))
        let dispatch: (String, [UInt8]) -> DRPCReply = { _, _ in .message([]) }
        #expect(throws: AnySyncWireError.self) { _ = try YamuxHeader.parse(WireVectors.hex("01 00 0000 00000000 00000000")[...]) }
        #expect(throws: AnySyncWireError.self) { _ = try YamuxHeader.parse(WireVectors.hex("00 07 0000 00000000 00000000")[...]) }
        _ = try Self.run(&session, WireVectors.hex("00 01 0001 00000001 00000000"), dispatch: dispatch)
        // Over maxStreams: that stream is reset, the session lives.
        #expect(try Self.run(&session, WireVectors.hex("00 01 0001 00000003 00000000"), dispatch: dispatch).output
                == WireVectors.hex("00 01 0008 00000003 00000000"))
        // A server-side (even) id opened by the client is a protocol error.
        let (out, verdict) = try Self.run(&session, WireVectors.hex("00 01 0001 00000002 00000000"), dispatch: dispatch)
        #expect(verdict == .close && out == YamuxSession.goAway(.protocolError))
        // Data beyond the window.
        var fresh = YamuxSession()
        _ = try Self.run(&fresh, WireVectors.hex("00 01 0001 00000001 00000000"), dispatch: dispatch)
        var output: [UInt8] = []
        let header = YamuxHeader(kind: .data, flags: [], streamID: 1, length: YamuxSession.initialWindow + 1)
        #expect(fresh.handle(header, payload: [UInt8](repeating: 0, count: Int(header.length)), output: &output,
                             dispatch: dispatch) == .close)
    }

    @Test func largeRepliesWaitForWindowUpdates() throws {
        var session = YamuxSession()
        let reply = [UInt8](repeating: 7, count: 300_000)
        let dispatch: (String, [UInt8]) -> DRPCReply = { _, _ in .message(reply) }
        var input = WireVectors.hex("00 01 0001 00000001 00000000")
        var payload = HandshakeFrame(kind: 3, payload: [0x12, 0x01, 0x00]).encoded()
        payload += DRPCFrame(kind: .invoke, stream: 1, message: 1, data: Array("/x".utf8)).encoded()
        payload += DRPCFrame(kind: .message, stream: 1, message: 2).encoded()
        input += YamuxHeader(kind: .data, flags: [], streamID: 1, length: UInt32(payload.count)).encoded() + payload
        let (first, _) = try Self.run(&session, input, dispatch: dispatch)
        let sent = { (bytes: [UInt8]) -> Int in
            var total = 0
            var offset = 0
            while let h = try? YamuxHeader.parse(bytes[offset...]) {
                let n = h.kind == .data ? Int(h.length) : 0
                if h.kind == .data { total += n }
                offset += 12 + n
            }
            return total
        }
        #expect(sent(first) == Int(YamuxSession.initialWindow))
        let (rest, _) = try Self.run(&session, WireVectors.hex("00 01 0000 00000001 00100000"), dispatch: dispatch)
        // Proto reply, Message header (control, ids, 3-byte length) and body, CloseSend.
        #expect(sent(first) + sent(rest) == 8 + 6 + reply.count + 4)
    }
}
