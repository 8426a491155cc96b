/// A request handed to an engine's thread (`EventLoop`, `H2Engine`): what to send, by when,
/// and whom to tell.
struct Submission {
    typealias Completion = @Sendable (Result<ClientResponse, TransportError>) -> Void

    let request: ClientRequest
    /// Counted from `send`: the request's own timeout, or the configuration's.
    let deadline: ContinuousClock.Instant
    let cancellation: CancellationFlag?
    let completion: Completion
}
