extension H2PoolStateMachine {
    /// What the engine does for the machine. `open` and `openStream` are reported back
    /// (`connectionStarted`/`connectFailed`, `streamOpened`/`streamNotOpened`) before the rest
    /// of the list is carried out; `close` comes back as `closed`.
    enum Action: Equatable {
        /// Resolve the origin's host and connect (TCP, TLS, HTTP/2): `connectionStarted` once
        /// the socket is connecting, `connectFailed` when it cannot be.
        case open(ConnectionID, origin: String)
        /// Submit the request on the connection: `streamOpened` with its stream id, or
        /// `streamNotOpened`.
        case openStream(RequestID, on: ConnectionID)
        /// RST_STREAM(CANCEL) the request's stream (a timeout or a cancellation); the machine
        /// has forgotten it.
        case resetStream(RequestID, on: ConnectionID)
        /// Complete the request with the answer its stream received.
        case succeed(RequestID)
        case fail(RequestID, TransportError)
        /// The origin speaks HTTP/1.1: send the request through libcurl with the time it has left.
        case handOver(RequestID)
        /// Close the connection; `closed` reports its unanswered streams.
        case close(ConnectionID, TransportError)
        /// Send a PING; its ACK comes back as `pingAcknowledged`.
        case ping(ConnectionID)
        /// The request is sent again (counted in `HTTPClientStats.retries`).
        case retried(RequestID)
    }

    /// How a stream ended.
    enum StreamEnd: Equatable {
        /// A final answer and the end of the stream.
        case answered
        /// The response body passed `maxResponseBytes` (the stream was reset).
        case tooLarge
        /// RST_STREAM with this HTTP/2 error code; `afterAnswer` when the final answer's
        /// headers had arrived (the server processed it: never sent again).
        case reset(code: UInt32, afterAnswer: Bool)
    }

    /// The pool's limits and timers (`HTTPClientConfiguration` holds the configurable ones).
    struct Settings: Sendable {
        var maxConnectionsPerHost: Int
        /// Streams per connection; the server's `SETTINGS_MAX_CONCURRENT_STREAMS` lowers it.
        var maxConcurrentStreams: Int
        /// From connecting (after DNS) to the server's first SETTINGS.
        var connectTimeout: Duration
        /// A connection with no stream for this long is closed.
        var idleTimeout: Duration
        /// A connection with streams and no frame for this long is sent a PING...
        var pingAfter: Duration
        /// ...and is lost when its ACK has not come this long after.
        var pingTimeout: Duration
        /// Tries of a request whose streams were refused (`REFUSED_STREAM`, or above a
        /// GOAWAY's last stream id: never processed, RFC 9113 §8.7).
        var refusedAttempts = 3
        /// Tries of a request whose streams were lost any other way before an answer.
        var lostAttempts = 2
        /// Origins known to speak HTTP/1.1 kept with nothing queued or open: past it the tick
        /// forgets them (their next request learns it again from ALPN), so origins an attacker
        /// picks cannot grow the pool's memory or its ticks.
        var maxRememberedOrigins = 1024

        init(_ configuration: HTTPClientConfiguration) {
            maxConnectionsPerHost = max(1, configuration.maxConnectionsPerHost)
            maxConcurrentStreams = configuration.maxConcurrentStreams
            connectTimeout = configuration.connectTimeout
            idleTimeout = configuration.idleConnectionTimeout
            pingAfter = configuration.pingAfterQuiet
            pingTimeout = configuration.pingTimeout
        }
    }

    /// HTTP/2's `REFUSED_STREAM` error code (RFC 9113 §7).
    static let refusedStream: UInt32 = 0x7
}
