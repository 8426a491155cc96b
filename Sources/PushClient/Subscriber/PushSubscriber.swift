import PushCrypto
import PushProtocol
import PushSupport

/// The device side of the node for one account: token registration, space registration, and the
/// hook from token changes to the `Reconciler`.
public final class PushSubscriber: Sendable {
    /// A device token to register (PROTOCOL §3 `POST /v1/tokens`): the request as the node takes it.
    /// Web Push keys given as base64url text go through the throwing
    /// `init(deviceId:platform:token:p256dh:auth:appId:environment:)` below.
    public typealias TokenRegistration = SetTokenRequest

    /// What `revokeToken` achieved. The local logout never waits on it.
    public enum RevokeResult: Sendable, Equatable {
        /// The node confirmed.
        case revoked
        /// The node was unreachable or busy: the revoke keeps being retried in the background
        /// (per `RetryPolicy`, in this process only; see `waitForRevocations()`).
        case retryingInBackground
        /// The node refused it (e.g. an auth error); nothing more is tried.
        case abandoned(PushClientError)
    }

    private let transport: any NodeTransport
    private let accountID: String
    private let reconciler: Reconciler?
    private let retry: RetryPolicy
    private let clock: any PushClock
    private let log: PushLog
    /// Revokes retrying in the background.
    private let background = Protected(PendingWork())

    /// - Parameters:
    ///   - accountID: the account the transport signs for.
    ///   - reconciler: told about token changes (`.tokenChanged`) when given.
    ///   - retry: the background revoke schedule.
    public init(transport: any NodeTransport, accountID: String, reconciler: Reconciler? = nil,
                retry: RetryPolicy = .fixed(), clock: any PushClock = SystemPushClock(), log: PushLog = .none) {
        self.transport = transport
        self.accountID = accountID
        self.reconciler = reconciler
        self.retry = retry
        self.clock = clock
        self.log = log
    }

    /// Registers (or replaces) this device's token; returns the node's `registrationId`.
    /// Re-register on every start and on token rotation: it is idempotent.
    @discardableResult
    public func setToken(_ registration: TokenRegistration) async throws(PushClientError) -> String {
        let answer = try await NodeCall.send(transport, "POST", "/v1/tokens", body: JSON.body(registration),
                                             as: SetTokenResponse.self)
        log.event("token_set", [("platform", registration.platform.rawValue), ("registration_id", answer.registrationId)])
        reconciler?.trigger(.tokenChanged)
        return answer.registrationId
    }

    /// Sends one test push to one of this account's registrations now and returns what the
    /// provider said and how long it took (`POST /v1/tokens/test`, PROTOCOL §10). A `dead` answer
    /// has deleted the registration on the node.
    public func testToken(registrationId: String) async throws(PushClientError) -> TestTokenResponse {
        try await NodeCall.send(transport, "POST", "/v1/tokens/test",
                                body: JSON.body(TestTokenRequest(registrationId: registrationId)), as: TestTokenResponse.self)
    }

    /// Revokes every registration of a device (logout). Always returns promptly: the caller
    /// deletes its local token regardless, and an unreachable node is retried in the background.
    public func revokeToken(deviceId: String) async -> RevokeResult {
        await revoke(RevokeTokenRequest(.device(deviceId)))
    }

    /// Revokes one token by value and platform.
    public func revokeToken(token: String, platform: Platform) async -> RevokeResult {
        await revoke(RevokeTokenRequest(.token(token, platform)))
    }

    /// Registers a space with the node (space owners): the space key signs the account id.
    public func createSpace(_ space: any TopicSigner) async throws(PushClientError) {
        _ = try await NodeCall.exchange(transport, "POST", "/v1/spaces", body: try registrationBody(space))
    }

    /// Removes a space registration.
    public func removeSpace(_ space: any TopicSigner) async throws(PushClientError) {
        _ = try await NodeCall.exchange(transport, "POST", "/v1/spaces/remove", body: try registrationBody(space))
    }

    /// The topics the node holds for this account.
    public func subscriptions() async throws(PushClientError) -> [TopicRef] {
        let list = try await NodeCall.send(transport, "GET", "/v1/subscriptions", as: SubscriptionsResponse.self)
        return list.topics.sorted()
    }

    /// Adds topics of one space to the account's set (`POST /v1/subscriptions`); returns the count
    /// the account holds afterwards. Apps use the `Reconciler` instead; this is for tools.
    @discardableResult
    public func subscribe(_ topics: [String], in space: any TopicSigner) async throws(PushClientError) -> Int {
        let body = SubscribeRequest(topics: try space.signedTopics(topics))
        return try await NodeCall.send(transport, "POST", "/v1/subscriptions", body: JSON.body(body),
                                       as: SubscriptionCountResponse.self).count
    }

    /// Removes topics of one space from the account's set (`POST /v1/subscriptions/remove`).
    @discardableResult
    public func unsubscribe(_ topics: [String], in space: any TopicSigner) async throws(PushClientError) -> Int {
        let key = try space.wireSpaceKey()
        let body = UnsubscribeRequest(topics: topics.map { TopicRef(spaceKey: key, topic: $0) })
        return try await NodeCall.send(transport, "POST", "/v1/subscriptions/remove", body: JSON.body(body),
                                       as: SubscriptionCountResponse.self).count
    }

    /// The account's registrations (`GET /v1/tokens`): ids, devices, platforms — never tokens.
    public func registrations() async throws(PushClientError) -> [RegistrationSummary] {
        try await NodeCall.send(transport, "GET", "/v1/tokens", as: ListTokensResponse.self).registrations
    }

    /// Waits until background revokes have finished (for tests and shutdown).
    public func waitForRevocations() async {
        await background.waitUntilIdle(\.self)
    }

    private func registrationBody(_ space: any TopicSigner) throws(PushClientError) -> [UInt8] {
        JSON.body(SpaceRequest(spaceKey: try space.wireSpaceKey(), signature: space.signRegistration(of: accountID)))
    }

    private func revoke(_ body: RevokeTokenRequest) async -> RevokeResult {
        let bytes = JSON.body(body)
        var schedule = RetrySchedule(policy: retry)
        switch await tryRevoke(bytes, &schedule) {
        case .finished:
            log.event("token_revoked")
            return .revoked
        case .giveUp(let reason):
            return .abandoned(abandonError(reason))
        case .retry(let pause):
            background.withLock { $0.add() }
            Task {
                var schedule = schedule
                var pause = pause
                while true {
                    try? await self.clock.sleep(for: pause)
                    switch await self.tryRevoke(bytes, &schedule) {
                    case .retry(let next): pause = next; continue
                    case .finished: self.log.event("token_revoked", [("attempts", "\(schedule.attempts)")])
                    case .giveUp(let reason): self.log.event("token_revoke_failed", [("reason", reason.name)])
                    }
                    break
                }
                self.background.finishOne(\.self)
            }
            return .retryingInBackground
        }
    }

    private func tryRevoke(_ body: [UInt8], _ schedule: inout RetrySchedule) async -> RetrySchedule.Action {
        let outcome: AttemptOutcome
        do {
            outcome = AttemptOutcome.classify(try await transport.send(method: "POST", path: "/v1/tokens/revoke", query: nil, body: body))
        } catch {
            outcome = .networkError
        }
        return schedule.record(outcome, now: clock.now())
    }

    private func abandonError(_ reason: RetrySchedule.GiveUpReason) -> PushClientError {
        switch reason {
        case let .rejected(status, apiCode):
            return PushClientError(code: .rejected, message: "revoke refused", status: status, apiCode: apiCode)
        case .exhausted, .retryAfterTooLong:
            return PushClientError(code: .network, message: "revoke not confirmed: \(reason.name)")
        }
    }
}

extension PushSubscriber.TokenRegistration {
    /// A registration whose Web Push keys (the browser's P-256 public key and auth secret) are
    /// base64url text, as a browser's `PushSubscription.toJSON()` gives them.
    /// - Throws: `PushClientError` `invalidArgument` when a key is not base64url.
    public init(deviceId: String, platform: Platform, token: String, p256dh: String?, auth: String?,
                appId: String? = nil, environment: String? = nil) throws(PushClientError) {
        self.init(deviceId: deviceId, platform: platform, token: token, p256dh: try Self.bytes(p256dh, "p256dh"),
                  auth: try Self.bytes(auth, "auth"), appId: appId, environment: environment)
    }

    private static func bytes(_ base64URL: String?, _ field: String) throws(PushClientError) -> [UInt8]? {
        guard let base64URL else { return nil }
        do {
            return try Base64.decodeURL(base64URL)
        } catch {
            throw PushClientError(code: .invalidArgument, message: "\(field) is not base64url")
        }
    }
}
