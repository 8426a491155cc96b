import CNGHTTP2
import COpenSSL
import Glibc
import PushNet

/// What a connection tells the engine. Called on the engine's thread, never from inside an
/// nghttp2 callback (the connection collects and reports after `mem_recv` returns).
protocol H2ConnectionDelegate: AnyObject {
    /// Something arrived, in the order it did.
    func connection(_ connection: H2Connection, reported event: H2ConnectionEvent)
    /// The connection is gone; `unanswered` were on it without a complete answer.
    func connectionClosed(_ connection: H2Connection, unanswered: [H2Request], error: TransportError)
    /// The server chose HTTP/1.1 in ALPN: the origin's requests go to libcurl.
    func connectionSpeaksHTTP1(_ connection: H2Connection)
}

/// What a connection reports after nghttp2 has read a batch of bytes.
enum H2ConnectionEvent {
    /// Bytes arrived (reported once per read, before what they carried).
    case heard
    /// The server's SETTINGS, with its `SETTINGS_MAX_CONCURRENT_STREAMS` now in force.
    case settings(maxConcurrentStreams: Int)
    /// A stream ended (`stream` is the one it ended on: the request may be on another by the
    /// time this is handled).
    case ended(H2Request, stream: Int32, H2PoolStateMachine.StreamEnd)
    case goaway(lastStreamID: Int32)
    case pingAcknowledged
}

/// One TLS connection speaking HTTP/2 through nghttp2: non-blocking connect over the resolved
/// addresses in turn, the TLS handshake, then frames in and out. Every method runs on the
/// engine's thread.
final class H2Connection {
    enum State: Equatable { case connecting, handshaking, open, closed }

    let id: UInt64
    let target: H2Target
    private(set) var state = State.connecting
    private(set) var fd: Int32 = -1
    /// Requests on open streams, by stream id.
    private(set) var streams: [Int32: H2Request] = [:]

    private unowned let delegate: any H2ConnectionDelegate
    private let tls: TLSClientContext
    private let configuration: HTTPClientConfiguration
    private var addresses: [IPAddress]
    private var ssl: OpaquePointer?
    private var session: OpaquePointer?
    private var output: [UInt8] = []
    private var outputOffset = 0
    /// The TLS layer asked for the socket to become writable (handshake or a renegotiating read).
    private var tlsWantsWrite = false
    /// Reported from nghttp2 callbacks, handed to the delegate after the call returns.
    private var events: [H2ConnectionEvent] = []

    init(id: UInt64, target: H2Target, addresses: [IPAddress], tls: TLSClientContext, configuration: HTTPClientConfiguration,
         delegate: any H2ConnectionDelegate) {
        self.id = id
        self.target = target
        self.addresses = addresses
        self.tls = tls
        self.configuration = configuration
        self.delegate = delegate
    }

    deinit {
        if let session { nghttp2_session_del(session) }
        if let ssl { SSL_free(ssl) }
        if fd >= 0 { Glibc.close(fd) }
    }

    // MARK: Polling

    /// The epoll events to wait for.
    var interest: UInt32 {
        switch state {
        case .closed: return 0
        case .connecting: return EPOLLOUT.rawValue
        case .handshaking, .open:
            let writing = tlsWantsWrite || outputOffset < output.count
            return EPOLLIN.rawValue | (writing ? EPOLLOUT.rawValue : 0)
        }
    }

    // MARK: Opening

    /// Starts connecting to the first address; the error when none could be tried (the
    /// connection is then closed and was never the delegate's).
    func start() -> TransportError? {
        guard connectNext() else {
            state = .closed
            return .connectFailed
        }
        return nil
    }

    /// Opens a socket to the next address; false when none is left.
    private func connectNext() -> Bool {
        while let address = addresses.first {
            addresses.removeFirst()
            if fd >= 0 { Glibc.close(fd) }
            fd = Self.openSocket(to: address, port: target.port)
            if fd >= 0 { return true }
        }
        return false
    }

    private static func openSocket(to address: IPAddress, port: Int) -> Int32 {
        let socketAddress = SocketAddress(address, port: port)
        let fd = socket(socketAddress.family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return -1 }
        var one: Int32 = 1
        setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
        let rc = socketAddress.withSockaddr { connect(fd, $0, socketAddress.length) }
        guard rc == 0 || errno == EINPROGRESS else {
            Glibc.close(fd)
            return -1
        }
        return fd
    }

    // MARK: Events

    /// Handles what epoll reported; then reports to the delegate.
    func handle(events: UInt32) {
        switch state {
        case .connecting: finishConnect()
        case .handshaking: handshake()
        case .open:
            if events & (EPOLLIN.rawValue | EPOLLHUP.rawValue | EPOLLERR.rawValue) != 0 { read() }
            if state == .open { flush() }
        case .closed: break
        }
        report()
    }

    private func finishConnect() {
        var error: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        getsockopt(fd, SOL_SOCKET, SO_ERROR, &error, &length)
        guard error == 0 else {
            if !connectNext() { fail(.connectFailed) }
            return
        }
        do throws(TransportError) {
            ssl = try tls.session(fd: fd, target: target)
        } catch {
            fail(error)
            return
        }
        state = .handshaking
        handshake()
    }

    private func handshake() {
        guard let ssl else { return }
        let rc = SSL_do_handshake(ssl)
        guard rc == 1 else {
            switch SSL_get_error(ssl, rc) {
            case SSL_ERROR_WANT_READ: tlsWantsWrite = false
            case SSL_ERROR_WANT_WRITE: tlsWantsWrite = true
            default:
                let verify = SSL_get_verify_result(ssl)
                let reason = verify != X509_V_OK
                    ? String(cString: X509_verify_cert_error_string(verify)) : TLSClientContext.lastError("handshake failed")
                fail(.tls(reason))
            }
            return
        }
        tlsWantsWrite = false
        var selected: UnsafePointer<UInt8>?
        var length: UInt32 = 0
        SSL_get0_alpn_selected(ssl, &selected, &length)
        guard let selected, length == 2, selected[0] == UInt8(ascii: "h"), selected[1] == UInt8(ascii: "2") else {
            state = .closed
            delegate.connectionSpeaksHTTP1(self)
            return
        }
        guard startSession() else {
            fail(.other(code: -1, message: "nghttp2 session setup failed"))
            return
        }
        state = .open
        flush()
    }

    private func startSession() -> Bool {
        var callbacks: OpaquePointer?
        guard nghttp2_session_callbacks_new(&callbacks) == 0, let callbacks else { return false }
        defer { nghttp2_session_callbacks_del(callbacks) }
        H2Callbacks.install(on: callbacks)
        var session: OpaquePointer?
        guard nghttp2_session_client_new(&session, callbacks, Unmanaged.passUnretained(self).toOpaque()) == 0 else { return false }
        self.session = session
        // No server push; a 1 MiB window per stream and connection, so answers never wait on updates.
        var settings = [nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_ENABLE_PUSH.rawValue), value: 0),
                        nghttp2_settings_entry(settings_id: Int32(NGHTTP2_SETTINGS_INITIAL_WINDOW_SIZE.rawValue), value: 1 << 20)]
        guard nghttp2_submit_settings(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), &settings, settings.count) == 0 else { return false }
        _ = nghttp2_session_set_local_window_size(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), 0, 1 << 20)
        return true
    }

    // MARK: Streams

    /// Opens a stream for the request (the pool checked the stream budget); its stream id, or
    /// nil when nghttp2 refused it.
    func submit(_ request: H2Request) -> Int32? {
        guard let session else { return nil }
        let stream = H2Frames.submit(request, on: session, userAgent: configuration.userAgent)
        guard stream > 0 else { return nil }
        request.startAttempt(stream: stream)
        streams[stream] = request
        return stream
    }

    /// Queues a PING (sent with the next flush); its ACK is reported as `.pingAcknowledged`.
    func ping() {
        guard let session else { return }
        nghttp2_submit_ping(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), nil)
    }

    /// Resets the request's stream and forgets it (a timeout or a cancellation).
    func cancel(_ request: H2Request) {
        guard let session, streams.removeValue(forKey: request.streamID) != nil else { return }
        nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), request.streamID, NGHTTP2_CANCEL.rawValue)
    }

    /// Sends what nghttp2 has queued, as far as the socket takes it.
    func flush() {
        guard state == .open, let session, let ssl else { return }
        if outputOffset == output.count {
            output.removeAll(keepingCapacity: true)
            outputOffset = 0
        }
        while true {
            var chunk: UnsafePointer<UInt8>?
            let count = nghttp2_session_mem_send(session, &chunk)
            if count < 0 { return fail(.connectionReset) }
            guard count > 0, let chunk else { break }
            output.append(contentsOf: UnsafeBufferPointer(start: chunk, count: count))
        }
        while outputOffset < output.count {
            let written = output.withUnsafeBytes { bytes in
                SSL_write(ssl, bytes.baseAddress! + outputOffset, Int32(min(bytes.count - outputOffset, Int(Int32.max))))
            }
            if written > 0 {
                outputOffset += Int(written)
                continue
            }
            switch SSL_get_error(ssl, written) {
            case SSL_ERROR_WANT_WRITE, SSL_ERROR_WANT_READ: return
            default: return fail(.connectionReset)
            }
        }
        if nghttp2_session_want_read(session) == 0 && nghttp2_session_want_write(session) == 0 && streams.isEmpty {
            close(.connectionReset)
        }
    }

    private func read() {
        guard let ssl, let session else { return }
        var heard = false
        while state == .open {
            let count = readBuffer.withUnsafeMutableBytes { SSL_read(ssl, $0.baseAddress, Int32($0.count)) }
            if count <= 0 {
                switch SSL_get_error(ssl, count) {
                case SSL_ERROR_WANT_READ: return
                case SSL_ERROR_WANT_WRITE:
                    tlsWantsWrite = true
                    return
                default: return fail(.connectionReset)  // EOF or a TLS alert
                }
            }
            if !heard {
                heard = true
                events.append(.heard)
            }
            let used = readBuffer.withUnsafeBytes { nghttp2_session_mem_recv(session, $0.baseAddress!.assumingMemoryBound(to: UInt8.self), Int(count)) }
            if used < 0 { return fail(.connectionReset) }
        }
    }

    /// Allocated once per connection, not per read.
    private var readBuffer = [UInt8](repeating: 0, count: 32 * 1024)

    // MARK: Closing

    /// Closes the connection: its unanswered requests go back to the delegate.
    func close(_ error: TransportError) {
        guard state != .closed else { return }
        state = .closed
        let unanswered = Array(streams.values)
        streams.removeAll()
        if fd >= 0 {
            Glibc.close(fd)
            fd = -1
        }
        delegate.connectionClosed(self, unanswered: unanswered, error: error)
    }

    private func fail(_ error: TransportError) {
        report()
        close(error)
    }

    /// Hands what happened inside nghttp2's callbacks to the delegate, in order.
    private func report() {
        while !events.isEmpty {
            let batch = events
            events.removeAll()
            for event in batch { delegate.connection(self, reported: event) }
        }
    }

    // MARK: From the nghttp2 callbacks

    func received(header name: String, value: String, stream: Int32) {
        streams[stream]?.receiveHeader(name: name, value: value)
    }

    func received(data: UnsafeRawBufferPointer, stream: Int32) {
        guard let request = streams[stream], let session else { return }
        if !request.receiveBody(data, limit: configuration.maxResponseBytes) {
            nghttp2_submit_rst_stream(session, UInt8(NGHTTP2_FLAG_NONE.rawValue), stream, NGHTTP2_CANCEL.rawValue)
        }
    }

    func closed(stream: Int32, errorCode: UInt32) {
        guard let request = streams.removeValue(forKey: stream) else { return }
        let end: H2PoolStateMachine.StreamEnd
        if request.exceededBodyCap {
            end = .tooLarge
        } else if request.answered && errorCode == NGHTTP2_NO_ERROR.rawValue {
            end = .answered
        } else {
            end = .reset(code: errorCode, afterAnswer: request.answered)
        }
        events.append(.ended(request, stream: stream, end))
    }

    func receivedSettings() {
        guard let session else { return }
        let remote = nghttp2_session_get_remote_settings(session, NGHTTP2_SETTINGS_MAX_CONCURRENT_STREAMS)
        events.append(.settings(maxConcurrentStreams: Int(remote)))
    }

    func receivedGoaway(lastStreamID: Int32) { events.append(.goaway(lastStreamID: lastStreamID)) }

    func receivedPingAck() { events.append(.pingAcknowledged) }
}
