/// What the HTTP server calls once a request is complete. Called on libmicrohttpd's worker
/// threads, concurrently: implementations are synchronous, blocking and thread-safe.
package protocol HTTPResponder: Sendable {
    /// The answer to a complete request (body read, within the size limit).
    func respond(to request: HTTPRequest) -> HTTPResponse
    /// The answer to a request whose body exceeded `limit` bytes; `request.body` is empty and
    /// the rest of the body was not buffered.
    func respondTooLarge(to request: HTTPRequest, limit: Int) -> HTTPResponse
}

