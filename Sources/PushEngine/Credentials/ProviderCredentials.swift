import Foundation

/// A provider credential the delivery engine keeps usable: an FCM OAuth access token or an
/// APNs provider JWT. Web Push signs per origin instead (`CachingVAPIDAuthorizer`).
///
/// Every method may be called from several threads; `prepare` and `refused` may block (an
/// FCM mint is an HTTP exchange), so never call them on the HTTP client's loop thread.
package protocol ProviderCredentials: AnyObject, Sendable {
    /// Makes sure a usable credential is at hand at `now`, minting one when there is none or it
    /// is due for renewal; concurrent callers share one mint. False when none could be had.
    func prepare(now: Date) -> Bool
    /// The credential to send now, without blocking; nil when there is none.
    func current() -> String?
    /// Counts the credentials minted so far; a request remembers the generation it was built
    /// with, so a refusal of an old credential does not renew again. The engine counts
    /// `pushnode_credential_refreshes_total` from it.
    var generation: Int { get }
    /// The provider refused the credential of `generation` (FCM 401, APNs
    /// `ExpiredProviderToken`/`InvalidProviderToken`): renew it once.
    func refused(generation: Int, now: Date) -> CredentialRenewal
    /// The provider accepted a request sent with `generation`: a later refusal of it may renew
    /// once again (a credential revoked after working is not the same as one that never works).
    func accepted(generation: Int)
    /// Why the last mint failed (the token endpoint's answer, a transport error code), never a
    /// secret; nil when it succeeded or nothing was minted yet. Shown by `/readyz` and
    /// `pushnode check --live`.
    var lastFailure: String? { get }
}

extension ProviderCredentials {
    package var lastFailure: String? { nil }
}

/// What `ProviderCredentials.refused` did.
package enum CredentialRenewal: Sendable, Equatable {
    /// A new credential was minted: retry with it.
    case renewed
    /// A newer credential than the refused one exists already: retry with it.
    case alreadyRenewed
    /// The refused credential was itself minted after a refusal (or minting failed): renewing
    /// again will not help. The provider is unhealthy.
    case gaveUp
}
