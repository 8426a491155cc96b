/// What the HTTP server calls once a request is complete. Called on libmicrohttpd's worker
/// threads, concurrently: implementations are synchronous, blocking and thread-safe.
package protocol HTTPResponder: Sendable {
    /// The answer to a complete request (body read, within the size limit).
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// The answer to a request whose body exceeded `limit` bytes; `request.body` is empty and
    /// the rest of the body was not buffered.
    func respondTooLarge(to request: HTTPRequest, limit: Int) -> HTTPResponse
}

/// An `HTTPResponder` made of closures (tests, small tools).
package struct ClosureResponder: HTTPResponder {
    private let handler: @Sendable (HTTPRequest) -> HTTPResponse
    private let tooLarge: @Sendable (HTTPRequest, Int) -> HTTPResponse

    package init(_ handler: @escaping @Sendable (HTTPRequest) -> HTTPResponse,
                tooLarge: @escaping @Sendable (HTTPRequest, Int) -> HTTPResponse = { _, _ in HTTPResponse(status: 413) }) {
        self.handler = handler
        self.tooLarge = tooLarge
    }

    package func respond(to request: HTTPRequest) -> HTTPResponse { handler(request) }
    package func respondTooLarge(to request: HTTPRequest, limit: Int) -> HTTPResponse { tooLarge(request, limit) }
}
