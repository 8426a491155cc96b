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
/// nonces with unsigned junk. A replay cache that cannot check is 503 `storage.unavailable`,
/// never 401: the fault is the node's.
package final class RequestAuthenticator: Sendable {
    /// The accepted distance between `created` and now, in seconds (`auth.clockSkew`).
    package let clockSkew: Double
    private let replayCache: any ReplayCache
    private let storage: StorageHealth?
    private let now: @Sendable () -> Double

    /// - Parameters:
    ///   - storage: the node's storage health, when the replay cache lives in the store's database
    ///     (PostgreSQL): each check's outcome is a store call's. nil for the in-memory cache, whose
    ///     success says nothing about storage.
    ///   - now: Unix seconds (wall clock); injectable for tests.
    package init(clockSkew: Double = 300, replayCache: any ReplayCache = MemoryReplayCache(), storage: StorageHealth? = nil,
                now: @escaping @Sendable () -> Double = Clocks.unixSeconds) {
        self.clockSkew = clockSkew
        self.replayCache = replayCache
        self.storage = storage
        self.now = now
    }

    /// The caller's account id, or the refusal to answer (401, or 503 when the replay window cannot
    /// be checked).
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
            switch replayCache.record(keyID: verified.accountID.string, nonce: verified.nonce,
                                      expiresAt: rememberUntil, now: now) {
            case .fresh:
                storage?.recordSuccess(.write)  // the pair was committed
                return verified.accountID
            case .replayed:
                storage?.recordSuccess(.read)  // the database answered; nothing was written
                throw APIError(code: .authReplayed, message: "this signature nonce was already used")
            case .unavailable:
                storage?.recordFailure(.write, ReplayCacheUnavailable())
                throw APIError(code: .storageUnavailable, message: ErrorJSON.storageUnavailableMessage)
            }
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
            throw APIError(code: .authExpired, message: "signature created too long ago (clock skew over \(Int(clockSkew))s)")
        }
        if -age > clockSkew {
            throw APIError(code: .authExpired, message: "signature created in the future (clock skew over \(Int(clockSkew))s)")
        }
        if let expires, Double(expires) < now {
            throw APIError(code: .authExpired, message: "signature has expired")
        }
    }
}

/// The replay cache could not check a nonce (its own error went to its counter, not here).
struct ReplayCacheUnavailable: Error {}
