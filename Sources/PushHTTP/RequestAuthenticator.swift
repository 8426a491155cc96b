import PushCrypto
import PushProtocol
import PushStore
import PushSupport

/// Authenticates a `/v1` request (PROTOCOL §2): the RFC 9421 signature by the caller's account
/// key, the `created` time within `clockSkew` of now in either direction, and a `(keyid, nonce)`
/// pair not seen within that window.
///
/// Order of checks: parse and profile (`auth.missing`, `auth.malformed`), time (`auth.expired`),
/// digest and signature (`auth.invalid_signature`), then replay (`auth.replayed`). The nonce is
/// recorded only for a request whose signature verified, so nobody can burn another account's
/// nonces with unsigned junk.
package final class RequestAuthenticator: Sendable {
    /// The accepted distance between `created` and now, in seconds (`auth.clockSkew`).
    package let clockSkew: Double
    private let replayCache: any ReplayCache
    private let now: @Sendable () -> Double

    /// - Parameter now: Unix seconds (wall clock); injectable for tests.
    package init(clockSkew: Double = 300, replayCache: any ReplayCache = MemoryReplayCache(),
                now: @escaping @Sendable () -> Double = Clocks.unixSeconds) {
        self.clockSkew = clockSkew
        self.replayCache = replayCache
        self.now = now
    }

    /// The caller's account id, or the 401 to answer.
    package func authenticate(_ request: HTTPRequest) throws(APIError) -> AccountID {
        let input = HTTPSignatureVerifier.Request(
            method: request.method, path: request.path, query: request.query, body: request.body,
            signatureInput: request.header("signature-input"), signature: request.header("signature"),
            contentDigest: request.header("content-digest"))
        let now = self.now()
        do {
            // Cheap structural and time checks first; the Ed25519 verify comes last.
            let candidate = try HTTPSignatureVerifier.parse(input)
            try checkTime(created: candidate.created, expires: candidate.expires, now: now)
            let verified = try HTTPSignatureVerifier.verify(candidate, for: input)
            let rememberUntil = Double(verified.created) + clockSkew
            guard replayCache.insertIfAbsent(keyID: verified.accountID.string, nonce: verified.nonce,
                                             expiresAt: rememberUntil, now: now) else {
                throw APIError(status: 401, code: .authReplayed, message: "this signature nonce was already used")
            }
            return verified.accountID
        } catch let error as HTTPSignatureError {
            throw error.apiError
        } catch let error as APIError {
            throw error
        } catch {
            throw APIError.internalError
        }
    }

    private func checkTime(created: Int64, expires: Int64?, now: Double) throws(APIError) {
        let age = now - Double(created)
        if age > clockSkew {
            throw APIError(status: 401, code: .authExpired, message: "signature created too long ago (clock skew over \(Int(clockSkew))s)")
        }
        if -age > clockSkew {
            throw APIError(status: 401, code: .authExpired, message: "signature created in the future (clock skew over \(Int(clockSkew))s)")
        }
        if let expires, Double(expires) < now {
            throw APIError(status: 401, code: .authExpired, message: "signature has expired")
        }
    }
}
