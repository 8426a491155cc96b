/// A snapshot of what an `HTTPClient` has done; cheap to read at any time.
package struct HTTPClientStats: Sendable, Equatable {
    /// Requests accepted by `send` and not yet completed.
    package var inFlight: Int
    /// Requests completed with a response.
    package var responses: Int
    /// Requests completed with a `TransportError`.
    package var failures: Int
    /// Requests sent a second time after their connection died (GOAWAY, reset).
    package var retries: Int
    /// New connections libcurl opened (the sum of `CURLINFO_NUM_CONNECTS`).
    package var connectionsOpened: Int
    /// Origins the HTTP/2 engine keeps state for (requests queued or open, connections, or an
    /// HTTP/1.1 answer remembered), as of its last sweep: bounded whatever origins are asked for.
    package var originsKnown = 0

    package init(inFlight: Int = 0, responses: Int = 0, failures: Int = 0, retries: Int = 0, connectionsOpened: Int = 0) {
        self.inFlight = inFlight
        self.responses = responses
        self.failures = failures
        self.retries = retries
        self.connectionsOpened = connectionsOpened
    }

    /// A request ended: out of flight, counted as a response or a failure (both engines).
    mutating func finish<Success>(_ result: Result<Success, TransportError>) {
        inFlight -= 1
        switch result {
        case .success: responses += 1
        case .failure: failures += 1
        }
    }

    /// Two engines' counts as one client's.
    static func + (lhs: HTTPClientStats, rhs: HTTPClientStats) -> HTTPClientStats {
        var sum = HTTPClientStats(inFlight: lhs.inFlight + rhs.inFlight, responses: lhs.responses + rhs.responses,
                                  failures: lhs.failures + rhs.failures, retries: lhs.retries + rhs.retries,
                                  connectionsOpened: lhs.connectionsOpened + rhs.connectionsOpened)
        sum.originsKnown = lhs.originsKnown + rhs.originsKnown
        return sum
    }
}
