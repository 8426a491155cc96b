import Foundation
import PushProtocol

/// The node's limits from `GET /v1/capabilities`, fetched once and kept. While the node cannot be
/// reached the defaults (the node's own defaults, PROTOCOL §7) are used, and the fetch is tried
/// again at most every `retryAfterFailure`.
public actor CapabilitiesCache {
    private let transport: any NodeTransport
    private let defaults: Limits
    private let retryAfterFailure: Duration
    private let clock: any PushClock
    private var cached: Limits?
    private var lastFailure: Date?

    public init(transport: any NodeTransport, defaults: Limits = .default, retryAfterFailure: Duration = .seconds(60),
                clock: any PushClock = SystemPushClock()) {
        self.transport = transport
        self.defaults = defaults
        self.retryAfterFailure = retryAfterFailure
        self.clock = clock
    }

    /// The node's limits, or the defaults while they are unknown.
    public func limits() async -> Limits {
        if let cached { return cached }
        if let lastFailure, clock.now().timeIntervalSince(lastFailure) < retryAfterFailure.timeInterval {
            return defaults
        }
        do {
            let response = try await transport.send(method: "GET", path: "/v1/capabilities", query: nil, body: nil)
            guard response.status == 200 else { throw PushClientError.rejected(response) }
            let answer = try JSON.decode(NodeWire.Capabilities.self, from: response.body)
            let limits = answer.limits(defaults: defaults)
            cached = limits
            return limits
        } catch {
            lastFailure = clock.now()
            return defaults
        }
    }

    /// Forgets the cached limits (e.g. after the node refused a payload as too large).
    public func invalidate() {
        cached = nil
        lastFailure = nil
    }

    /// Whether the limits came from the node (false while using the defaults).
    public var isKnown: Bool { cached != nil }
}
