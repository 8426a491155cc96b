import Foundation
import PushCrypto

/// FCM's OAuth access token: minted from the service account's RS256 assertion at the token
/// endpoint, cached until `refreshMargin` before it expires (never minted per request), minted
/// by one caller at a time while the others wait for it (single-flight), and renewed once when
/// FCM refuses it (`CredentialState`).
package final class FCMAccessTokens: ProviderCredentials, @unchecked Sendable {
    /// Renew this long before `expires_in` runs out.
    package static let refreshMargin: TimeInterval = 300

    private let assertion: GoogleServiceAccountAssertion
    private let endpoint: any OAuthTokenEndpoint
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var state = CredentialState()
    private var minting = false
    private var failure: String?

    package init(assertion: GoogleServiceAccountAssertion, endpoint: any OAuthTokenEndpoint) {
        self.assertion = assertion
        self.endpoint = endpoint
    }

    package var generation: Int { condition.withLock { state.generation } }

    package var lastFailure: String? { condition.withLock { failure } }

    package func current() -> String? {
        condition.withLock { state.current }
    }

    package func prepare(now: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while minting { condition.wait() }
        guard state.needsMint(at: now) else { return true }
        let minted = mintLocked(now: now)
        return state.minted(minted, at: now)
    }

    package func accepted(generation: Int) {
        condition.withLock { state.accepted(generation: generation) }
    }

    package func refused(generation: Int, now: Date) -> CredentialRenewal {
        condition.lock()
        defer { condition.unlock() }
        while minting { condition.wait() }
        if let renewal = state.refusal(of: generation) { return renewal }
        let minted = mintLocked(now: now)
        return state.mintedAfterRefusal(minted)
    }

    /// Mints with the lock released during the exchange; other callers wait on `minting`.
    private func mintLocked(now: Date) -> CredentialState.Minted? {
        minting = true
        condition.unlock()
        let result: OAuthAccessToken?
        var failed: String?
        do {
            let jwt = try assertion.token(issuedAt: Int(now.timeIntervalSince1970))
            result = try endpoint.exchange(assertion: jwt, tokenURI: assertion.tokenURI)
        } catch let error as OAuthExchangeError {
            result = nil
            failed = error.description
        } catch {
            result = nil
            failed = "assertion: cannot sign with the service account's private_key"
        }
        condition.lock()
        failure = failed
        minting = false
        condition.broadcast()
        return result.map { token in
            let expiresAt = now.addingTimeInterval(token.expiresIn)
            return CredentialState.Minted(value: token.value, renewAt: expiresAt.addingTimeInterval(-Self.refreshMargin),
                                          usableUntil: expiresAt)
        }
    }
}
