/// An HTTP/1.1 and HTTP/2 client built for many concurrent requests to few hosts (the push
/// providers).
///
/// HTTPS requests go to `H2Engine` (nghttp2 over OpenSSL, one epoll thread): HTTP/2 with
/// requests multiplexed over at most `maxConnectionsPerHost` connections, each request
/// waiting for a stream on an existing connection rather than opening another. `http://`
/// hosts, a configured proxy and servers that pick HTTP/1.1 in ALPN go to libcurl's multi
/// interface (`EventLoop`, its own thread) with keep-alive. Redirects are never followed. A
/// request whose stream or connection dies before the server answered (GOAWAY, reset
/// stream, closed socket) is sent again at once before it fails with `.connectionReset`.
///
/// `send` never blocks and may be called from any thread. Completions run on one of the
/// client's threads: keep them short and hand real work elsewhere.
package final class HTTPClient: Sendable {
    package let configuration: HTTPClientConfiguration
    private let loop: EventLoop
    private let h2: H2Engine?

    package init(configuration: HTTPClientConfiguration = HTTPClientConfiguration()) throws(TransportError) {
        self.configuration = configuration
        let loop = try EventLoop(configuration: configuration)
        self.loop = loop
        if configuration.httpsEngine == .nghttp2 && (configuration.proxy ?? "").isEmpty {
            h2 = try H2Engine(configuration: configuration) { request, cancellation, completion in
                loop.submit(request, cancellation: cancellation, completion: completion)
            }
        } else {
            h2 = nil
        }
        loop.start()
        h2?.start()
    }

    deinit {
        h2?.shutdown()
        loop.shutdown()
    }

    /// Starts a request; `completion` is called exactly once, on one of the client's threads.
    package func send(_ request: ClientRequest, completion: @escaping @Sendable (Result<ClientResponse, TransportError>) -> Void) {
        submit(request, cancellation: nil, completion: completion)
    }

    private func submit(_ request: ClientRequest, cancellation: CancellationFlag?,
                        completion: @escaping @Sendable (Result<ClientResponse, TransportError>) -> Void) {
        if let h2, let target = H2Target.parse(request.url) {
            h2.submit(request, target: target, cancellation: cancellation, completion: completion)
        } else {
            loop.submit(request, cancellation: cancellation, completion: completion)
        }
    }

    /// Sends a request and waits for its answer. Cancelling the task fails it with
    /// `.cancelled` (and resets its stream).
    package func send(_ request: ClientRequest) async throws(TransportError) -> ClientResponse {
        let cancellation = CancellationFlag()
        let (loop, h2) = (self.loop, self.h2)
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                submit(request, cancellation: cancellation) { continuation.resume(returning: $0) }
            }
        } onCancel: {
            cancellation.cancel()
            h2?.cancellationRequested()
            loop.cancellationRequested()
        }
        return try result.get()
    }

    /// Counters of what the client has done so far.
    package var stats: HTTPClientStats {
        guard let h2 = h2?.stats else { return loop.stats }
        return loop.stats + h2
    }

    /// Fails every queued and in-flight request with `.cancelled`, and every later one
    /// at once; returns when the client's thread has ended (or at once if called from a
    /// completion). Idempotent.
    package func shutdown() {
        h2?.shutdown()
        loop.shutdown()
    }
}
