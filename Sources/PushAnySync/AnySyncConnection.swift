import Foundation
import PushCrypto
import PushNet
import PushProtocol
import PushSupport

/// One client connection through every layer, on its own thread: TLS 1.3 with libp2p
/// certificates → credentials handshake → TLS dropped → yamux (Spec/anysync-wire.md §15). Any failure
/// closes this connection only.
final class AnySyncConnection: @unchecked Sendable {
    struct Settings: Sendable {
        var versions: ClosedRange<Int> = 5...14
        var limits = AnySyncLimits()
        /// The largest DRPC packet (`limits.maxBodyBytes`).
        var maxMessageBytes = 4 * 1024 * 1024

        var session: YamuxSession.Limits {
            YamuxSession.Limits(maxStreams: limits.maxStreams, maxFrameBytes: limits.maxFrameBytes,
                                maxHandshakeFrameBytes: limits.maxHandshakeFrameBytes, maxMessageBytes: maxMessageBytes)
        }
    }

    // Mutable state is touched by the connection thread only; `inYamux` is read by `stop`.
    let channel: SocketChannel
    private let tls: TLSServerContext
    private let peerKey: Ed25519.KeyPair
    private let ownPeerID: String
    private let settings: Settings
    private let makeHandler: @Sendable (AccountID, String, String?) -> PushCallHandler
    private let log: LogSink
    private let phase = Protected(false)

    /// Whether the connection is past TLS and credentials (the door counts the others as pending).
    var inYamux: Bool { phase.withLock { $0 } }

    init(channel: SocketChannel, tls: TLSServerContext, peerKey: Ed25519.KeyPair, ownPeerID: String, settings: Settings,
         log: LogSink, makeHandler: @escaping @Sendable (AccountID, String, String?) -> PushCallHandler) {
        self.channel = channel
        self.tls = tls
        self.peerKey = peerKey
        self.ownPeerID = ownPeerID
        self.settings = settings
        self.log = log
        self.makeHandler = makeHandler
    }

    /// Runs the connection to its end.
    func run() {
        do {
            guard let (account, peerID, rest) = try handshake() else { return }
            phase.withLock { $0 = true }
            log(.info, "anysync_session", ["account": "\(account.string)", "peer": "\(peerID)"])
            let client = ClientAddress.peer(of: channel.fd).map { ClientAddress.key(peer: $0) }
            let reason = try serveYamux(initial: rest, handler: makeHandler(account, peerID, client))
            log(.info, "anysync_closed", ["peer": "\(peerID)", "reason": "\(reason)"])
        } catch {
            log(.warn, "anysync_closed", ["reason": "\(error)"])
        }
    }

    /// Sends GoAway when the session is in its yamux phase, then ends the socket (shutdown).
    func stop() {
        if phase.withLock({ $0 }) { try? channel.write(YamuxSession.goAway(.normal), timeout: 1) }
        channel.shutdown()
    }

    /// TLS and the credentials exchange; nil when the client was refused (after the Ack).
    private func handshake() throws -> (AccountID, String, [UInt8])? {
        let session = try TLSSession(context: tls, channel: channel, deadline: Clocks.monotonicSeconds() + settings.limits.handshakeTimeout)
        let remotePeerID = try session.handshake()
        var buffer: [UInt8] = []
        let check = CredentialsCheck(ownPeerID: ownPeerID, versions: settings.versions)
        let credentials: HandshakeCredentials
        do {
            let frame = try readFrame(session, &buffer)
            guard frame.kind == HandshakeFrame.Kind.credentials.rawValue else { throw AnySyncWireError.malformed("expected Credentials") }
            credentials = try HandshakeCredentials.decode(frame.payload)
        } catch AnySyncWireError.tooLarge(let what) {
            try session.write(HandshakeAck(error: .unexpected).frame().encoded())
            throw AnySyncWireError.tooLarge(what)
        }
        switch check.check(credentials, remotePeerID: remotePeerID) {
        case .closeSilently:
            throw AnySyncWireError.malformed("credentials payload")
        case .refused(let code):
            try session.write(HandshakeAck(error: code).frame().encoded())
            log(.info, "anysync_refused", ["peer": "\(remotePeerID)", "code": "\(code)", "version": "\(credentials.version)"])
            return nil
        case .accepted(let account, let version):
            let own = check.credentials(signKey: peerKey, remotePeerID: remotePeerID, version: version,
                                        clientVersion: "pushnode:v\(NodeVersion.current)")
            try session.write(own.frame().encoded())
            let ack = try readFrame(session, &buffer)
            guard ack.kind == HandshakeFrame.Kind.ack.rawValue, try HandshakeAck.decode(ack.payload) == .null else {
                throw AnySyncWireError.malformed("client did not acknowledge")
            }
            guard buffer.isEmpty else { throw AnySyncWireError.malformed("bytes after the client's Ack") }
            try session.write(HandshakeAck(error: .null).frame().encoded())
            return (account, remotePeerID, try session.abandon())
        }
    }

    private func readFrame(_ session: TLSSession, _ buffer: inout [UInt8]) throws -> HandshakeFrame {
        while true {
            if let (frame, consumed) = try HandshakeFrame.parse(buffer, maxPayload: settings.limits.maxHandshakeFrameBytes) {
                buffer.removeFirst(consumed)
                return frame
            }
            buffer += try session.read()
        }
    }

    /// The yamux loop; returns why it ended. The session is idle, and closed after `idleTimeout`,
    /// when no whole frame arrived for that long: bytes that never complete a frame do not count.
    private func serveYamux(initial: [UInt8], handler: PushCallHandler) throws -> String {
        var session = YamuxSession(limits: settings.session)
        var buffer = initial
        let dispatch: (String, [UInt8]) -> DRPCReply = { handler.handle(rpc: $0, body: $1) }
        var idleDeadline = Clocks.monotonicSeconds() + settings.limits.idleTimeout
        while true {
            var output: [UInt8] = []
            let progress: YamuxSession.Progress
            do {
                progress = try session.handleFrames(in: buffer[...], output: &output, dispatch: dispatch)
            } catch {
                try? channel.write(output + YamuxSession.goAway(.protocolError))
                return "protocol_error"
            }
            buffer.removeFirst(progress.consumed)
            try channel.write(output, timeout: settings.limits.writeTimeout)
            if progress.verdict == .close { return "goaway" }
            if progress.frames > 0 { idleDeadline = Clocks.monotonicSeconds() + settings.limits.idleTimeout }
            do {
                buffer += try channel.read(deadline: idleDeadline)
            } catch {
                return error.description.replacingOccurrences(of: " ", with: "_")
            }
        }
    }
}
