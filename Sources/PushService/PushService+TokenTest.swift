import PushCrypto
import PushProtocol
import PushStore

extension PushService {
    /// `POST /v1/tokens/test` (PROTOCOL §10): one test push to one of the caller's registrations,
    /// answered once the provider has (the engine bounds the wait). Another account's id answers
    /// as an unknown one, `registration.not_found`; more than the registration's `testPush`
    /// budget is `rate_limited` with `Retry-After`. A `dead` answer prunes the registration, as
    /// any delivery would.
    package func testToken(_ request: TestTokenRequest, caller: AccountID) throws(ServiceError) -> TestTokenResponse {
        let registrations = try stored(.read) { try registry.registrations(ofAccount: caller.string) }
        guard let registration = registrations.first(where: { $0.id == request.registrationId }),
              let testPush = configuration.testPush else {
            throw .refused(.registrationNotFound, "no registration of this id belongs to the caller", field: "registrationId")
        }
        if case .denied(let retryAfter) = testPushes.take(account: registration.id, rateClass: .testPush) {
            throw .refused(ServiceError.Refusal(code: .rateLimited, message: "too many test pushes to this registration; retry later",
                                                retryAfter: retryAfter))
        }
        return testPush(registration)
    }
}
