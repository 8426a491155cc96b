import Foundation
import PushCrypto

/// FCM's OAuth access token: minted from the service account's RS256 assertion at the token
/// endpoint, cached until `refreshMargin` before it expires (never minted per request), minted
/// by one caller at a time while the others wait for it (single-flight), and renewed once when
/// FCM refuses it.
package final class FCMAccessTokens: ProviderCredentials, @unchecked Sendable {
    /// Renew this long before `expires_in` runs out.
    package static let refreshMargin: TimeInterval = 300

    private let assertion: GoogleServiceAccountAssertion
    private let endpoint: any OAuthTokenEndpoint
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var token: String?
    private var expiresAt = Date.distantPast
    private var mintedAt = Date.distantPast
    private var minting = false
    private var currentGeneration = 0
    /// The generation minted because its predecessor was refused.
    private var renewedAfterRefusal = -1
    private var mints = 0

    package init(assertion: GoogleServiceAccountAssertion, endpoint: any OAuthTokenEndpoint) {
        self.assertion = assertion
        self.endpoint = endpoint
    }

    package var generation: Int { condition.withLock { currentGeneration } }
    package var refreshes: Int { condition.withLock { mints } }

    package func current() -> String? {
        condition.withLock { token }
    }

    package func prepare(now: Date) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while minting { condition.wait() }
        if token != nil, now < expiresAt.addingTimeInterval(-Self.refreshMargin) { return true }
        let ok = mintLocked(now: now)
        // A failed renewal keeps a token that is still valid.
        return ok || (token != nil && now < expiresAt)
    }

    package func accepted(generation: Int) {
        condition.withLock {
            if renewedAfterRefusal == generation { renewedAfterRefusal = -1 }
        }
    }

    package func refused(generation refused: Int, now: Date) -> CredentialRenewal {
        condition.lock()
        defer { condition.unlock() }
        while minting { condition.wait() }
        if refused < currentGeneration { return .alreadyRenewed }
        if renewedAfterRefusal == currentGeneration { return .gaveUp }
        guard mintLocked(now: now) else { return .gaveUp }
        renewedAfterRefusal = currentGeneration
        return .renewed
    }

    /// Mints with the lock released during the exchange; other callers wait on `minting`.
    private func mintLocked(now: Date) -> Bool {
        minting = true
        condition.unlock()
        let result: OAuthAccessToken?
        do {
            let jwt = try assertion.token(issuedAt: Int(now.timeIntervalSince1970))
            result = try endpoint.exchange(assertion: jwt, tokenURI: assertion.tokenURI)
        } catch {
            result = nil
        }
        condition.lock()
        minting = false
        condition.broadcast()
        guard let result else { return false }
        token = result.value
        mintedAt = now
        expiresAt = now.addingTimeInterval(result.expiresIn)
        currentGeneration += 1
        mints += 1
        return true
    }
}
