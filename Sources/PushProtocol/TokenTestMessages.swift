/// `POST /v1/tokens/test`: one test push to one of the caller's registrations, now (PROTOCOL §10).
public struct TestTokenRequest: Sendable, Equatable, Codable {
    public var registrationId: String

    public init(registrationId: String) { self.registrationId = registrationId }
}

/// What the provider said to the test push, and how long it took.
public struct TestTokenResponse: Sendable, Equatable, Codable {
    /// How a test push ended.
    public enum Outcome: String, Sendable, Codable, CaseIterable {
        /// The provider accepted it.
        case delivered
        /// The provider called the registration dead; it is deleted, as after any delivery.
        case dead
        /// The provider refused this push (or none could be built); retrying it will not help.
        case rejected
        /// A failure that a later try may not have: the provider's 5xx or 429, refused
        /// credentials, a connection that failed.
        case failed
        /// No answer within the wait.
        case timeout
    }

    public var registrationId: String
    /// The registration's app (`default` for the top-level credentials).
    public var app: String
    public var platform: Platform
    public var outcome: Outcome
    /// The provider's HTTP status; 0 when no answer came (or no request could be built).
    public var status: Int
    /// The node's reason code (PROTOCOL §6), when the push did not go through.
    public var reason: String?
    /// The provider's own word for it (`Unregistered`, `UNREGISTERED`, an HTTP status).
    public var providerReason: String?
    /// From sending to the provider's answer (or to giving up), milliseconds.
    public var latencyMs: Int

    public init(registrationId: String, app: String, platform: Platform, outcome: Outcome, status: Int,
                reason: String? = nil, providerReason: String? = nil, latencyMs: Int) {
        self.registrationId = registrationId
        self.app = app
        self.platform = platform
        self.outcome = outcome
        self.status = status
        self.reason = reason
        self.providerReason = providerReason
        self.latencyMs = latencyMs
    }
}
