import Foundation
import PushCrypto

/// An OAuth access token bought at a token endpoint (FCM: a service-account assertion; Huawei
/// Push Kit v1: the app's client credentials): cached until `refreshMargin` before it expires
/// (never minted per request), minted by one caller at a time while the others wait for it
/// (single-flight), and renewed once when the provider refuses it (`CredentialState`).
package final class OAuthAccessTokens: ProviderCredentials, @unchecked Sendable {
    /// Renew this long before `expires_in` runs out.
    package static let refreshMargin: TimeInterval = 300

    /// Buys a token at the Unix second given; its error says why not, never with a secret.
    package typealias Fetch = @Sendable (_ now: Int) throws(OAuthExchangeError) -> OAuthAccessToken

    private let fetch: Fetch
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var state = CredentialState()
    private var minting = false
    private var failure: String?

    package init(fetch: @escaping Fetch) {
        self.fetch = fetch
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
            result = try fetch(Int(now.timeIntervalSince1970))
        } catch {
            result = nil
            failed = error.description
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

/// FCM's access token: the service account's RS256 assertion exchanged at its `token_uri`.
package enum FCMAccessTokens {
    package static func make(assertion: GoogleServiceAccountAssertion, endpoint: any OAuthTokenEndpoint) -> OAuthAccessTokens {
        OAuthAccessTokens { now throws(OAuthExchangeError) in
            let jwt: String
            do { jwt = try assertion.token(issuedAt: now) } catch {
                throw OAuthExchangeError(description: "assertion: cannot sign with the service account's private_key")
            }
            return try endpoint.exchange(form: [("grant_type", "urn:ietf:params:oauth:grant-type:jwt-bearer"),
                                                ("assertion", jwt)], tokenURI: assertion.tokenURI)
        }
    }
}

/// Huawei Push Kit v1's access token: the app's id and secret posted to `huawei.tokenURL`
/// (OAuth 2.0 client credentials grant).
package enum HuaweiAccessTokens {
    package static func make(clientID: String, clientSecret: String, tokenURL: String,
                             endpoint: any OAuthTokenEndpoint) -> OAuthAccessTokens {
        OAuthAccessTokens { _ throws(OAuthExchangeError) in
            try endpoint.exchange(form: [("grant_type", "client_credentials"), ("client_id", clientID),
                                         ("client_secret", clientSecret)], tokenURI: tokenURL)
        }
    }
}
