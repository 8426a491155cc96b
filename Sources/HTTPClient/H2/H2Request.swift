/// One request inside the HTTP/2 engine, across its attempts: what to send, when it must be
/// done, and what the current attempt's stream has received. Lives on the engine's thread.
final class H2Request {
    typealias Completion = Submission.Completion

    /// Its key in `H2PoolStateMachine`.
    let id: UInt64
    let request: ClientRequest
    let target: H2Target
    let deadline: ContinuousClock.Instant
    let cancellation: CancellationFlag?
    let completion: Completion

    /// Streams opened so far for it.
    /// The stream of the current attempt (0 while queued).
    var streamID: Int32 = 0
    /// Body bytes handed to nghttp2 so far in this attempt.
    var bodyOffset = 0
    private(set) var status: Int?
    private(set) var headers: [String: String] = [:]
    private(set) var body: [UInt8] = []
    /// The response body passed the cap: the stream was reset.
    var exceededBodyCap = false

    init(id: UInt64, _ submission: Submission, target: H2Target) {
        self.id = id
        request = submission.request
        self.target = target
        deadline = submission.deadline
        cancellation = submission.cancellation
        completion = submission.completion
    }

    /// Forgets what an earlier attempt received.
    func startAttempt(stream: Int32) {
        streamID = stream
        bodyOffset = 0
        status = nil
        headers = [:]
        body = []
        exceededBodyCap = false
    }

    /// A header field of the answer; an informational (1xx) status starts the block again.
    func receiveHeader(name: String, value: String) {
        if name == ":status" {
            status = Int(value)
            headers = [:]
            return
        }
        if let existing = headers[name] { headers[name] = existing + ", " + value } else { headers[name] = value }
    }

    /// A final answer arrived (a 1xx does not count).
    var answered: Bool { (status ?? 0) >= 200 }

    /// Body bytes; false once they pass `limit`.
    func receiveBody(_ bytes: UnsafeRawBufferPointer, limit: Int) -> Bool {
        guard body.count + bytes.count <= limit else {
            exceededBodyCap = true
            return false
        }
        body.append(contentsOf: bytes)
        return true
    }

    var response: ClientResponse {
        ClientResponse(status: status ?? 0, headers: headers, body: body, httpVersion: 2)
    }
}
