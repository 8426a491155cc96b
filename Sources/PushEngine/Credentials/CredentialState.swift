import Foundation

/// The life of one provider credential, shared by the FCM access token and the APNs provider
/// JWT caches: which credential is current and its generation, when it is due for renewal and
/// until when it may still be sent, and the refusal rule — a refused credential is renewed
/// once, but a credential that was itself minted because of a refusal, refused before it ever
/// worked, means renewing will not help (`CredentialRenewal.gaveUp`: the provider is unhealthy).
///
/// A value with no lock and no clock: the caches hold it under their lock, pass the time of
/// each call in and mint in between (`needsMint`, then `minted`; `refusal`, then
/// `mintedAfterRefusal`), so each mints its own way (APNs signs under its lock, FCM exchanges
/// over HTTP with it released).
package struct CredentialState: Sendable, Equatable {
    /// A freshly minted credential and its times.
    package struct Minted: Sendable, Equatable {
        package var value: String
        /// From then on `needsMint` asks for a new one.
        package var renewAt: Date
        /// Until then it may still be sent when a renewal fails.
        package var usableUntil: Date
    }

    /// The credential to send; nil before the first mint.
    package private(set) var current: String?
    /// Counts the credentials minted so far (the first is 1).
    package private(set) var generation = 0
    private var renewAt = Date.distantPast
    private var usableUntil = Date.distantPast
    /// The generation minted because its predecessor was refused, until it is accepted.
    private var renewedAfterRefusal: Int?

    package init() {}

    /// Whether `prepare` at `now` must mint: there is no credential or it is due for renewal.
    package func needsMint(at now: Date) -> Bool { current == nil || now >= renewAt }

    /// Records a mint at `now` (nil: it failed); true when a credential may be sent, which a
    /// failed renewal leaves true while the current one is still usable.
    package mutating func minted(_ credential: Minted?, at now: Date) -> Bool {
        guard let credential else { return current != nil && now < usableUntil }
        record(credential)
        return true
    }

    /// What a refusal of the credential of `generation` comes to without a mint, or nil when
    /// one must be minted now (then report it with `mintedAfterRefusal`).
    package func refusal(of refused: Int) -> CredentialRenewal? {
        if refused < generation { return .alreadyRenewed }
        if renewedAfterRefusal == generation { return .gaveUp }
        return nil
    }

    /// Records the mint a refusal asked for (nil: it failed, and so did the renewal).
    package mutating func mintedAfterRefusal(_ credential: Minted?) -> CredentialRenewal {
        guard let credential else { return .gaveUp }
        record(credential)
        renewedAfterRefusal = generation
        return .renewed
    }

    /// A request sent with `generation` was accepted: a later refusal of it may renew once
    /// again (a credential revoked after working is not the same as one that never works).
    package mutating func accepted(generation accepted: Int) {
        if renewedAfterRefusal == accepted { renewedAfterRefusal = nil }
    }

    private mutating func record(_ credential: Minted) {
        current = credential.value
        renewAt = credential.renewAt
        usableUntil = credential.usableUntil
        generation += 1
    }
}
