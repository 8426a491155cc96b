import PushProtocol

/// Moves a gateway's request to its provider and reports the answer: the HTTP client in
/// production, an in-process fake in tests and benchmarks.
package protocol DeliveryTransport: Sendable {
    /// Starts the exchange; `completion` is called exactly once, on any thread (for the HTTP
    /// client, its loop thread: keep it short).
    func send(_ request: OutboundRequest, provider: Provider, timeout: Duration,
              completion: @escaping @Sendable (Result<ProviderAnswer, TransportFailure>) -> Void)
    /// Fails what is in flight and refuses new requests.
    func shutdown()
}
