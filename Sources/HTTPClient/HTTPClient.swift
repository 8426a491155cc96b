/// An HTTP/1.1 and HTTP/2 client on libcurl's multi interface, built for many
/// concurrent requests to few hosts (the push providers).
///
/// One dedicated thread drives all transfers. HTTPS hosts get HTTP/2 (ALPN) with
/// requests multiplexed over at most `maxConnectionsPerHost` connections, each request
/// waiting for a stream on an existing connection rather than opening another;
/// `http://` hosts get HTTP/1.1 with keep-alive. Redirects are never followed. A
/// request whose connection dies before the server answered (GOAWAY, reset stream,
/// closed socket) is sent once more before it fails with `.connectionReset`.
///
/// `send` never blocks and may be called from any thread. Completions run on the
/// client's event-loop thread: keep them short and hand real work elsewhere.
package final class HTTPClient: Sendable {
    package let configuration: HTTPClientConfiguration
    private let loop: EventLoop

    package init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) throws(TransportError) {
        self.configuration = configuration
        loop = try EventLoop(configuration: configuration)
        loop.start()
    }

    deinit {
        loop.shutdown()
    }

    /// Starts a request; `completion` is called exactly once, on the client's thread.
    package func send(_ request: ClientRequest, completion: @escaping @Sendable (Result<ClientResponse, TransportError>) -> Void) {
        loop.submit(request, completion: completion)
    }

    /// Sends a request and waits for its answer. Cancelling the task fails it with
    /// `.cancelled` (and resets its stream).
    package func send(_ request: ClientRequest) async throws(TransportError) -> ClientResponse {
        let cancellation = CancellationFlag()
        let loop = self.loop
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                loop.submit(request, cancellation: cancellation) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            cancellation.cancel()
            loop.cancellationRequested()
        }
        return try result.get()
    }

    /// Counters of what the client has done so far.
    package var stats: HTTPClientStats {
        loop.stats
    }

    /// Fails every queued and in-flight request with `.cancelled`, and every later one
    /// at once; returns when the client's thread has ended (or at once if called from a
    /// completion). Idempotent.
    package func shutdown() {
        loop.shutdown()
    }
}
