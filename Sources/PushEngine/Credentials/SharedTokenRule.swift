import Foundation
import PushStore

/// When a provider token kept in the database for every node (`SharedCredential`) is renewed,
/// and by whom (PROTOCOL §10): Apple wants one APNs token per key at a time, changed at most
/// every 20 minutes (else `429 TooManyProviderTokenUpdates`). A value with no I/O: the caller
/// reads the stored credential, asks, and mints and stores with a compare-and-set, so of several
/// nodes asking at once one renews and the others read its token.
package enum SharedTokenRule {
    package struct Timing: Sendable, Equatable {
        /// A token this old is renewed (`apns.tokenRenewal`, 50 min: APNs refuses tokens older than an hour).
        package var renewalAge: TimeInterval
        /// Never renewed again within this (`apns.tokenMinInterval`, 20 min), except once after a refusal.
        package var minimumInterval: TimeInterval

        package init(renewalAge: TimeInterval = 50 * 60, minimumInterval: TimeInterval = 20 * 60) {
            self.renewalAge = renewalAge
            self.minimumInterval = minimumInterval
        }
    }

    package enum Step: Sendable, Equatable {
        /// Send the stored token.
        case use(SharedCredential)
        /// Mint a new one and store it in place of the stored one (nil: none is stored).
        case mint(replacing: SharedCredential?, afterRefusal: Bool)
        /// The token was renewed after a refusal and refused again within the interval: renewing
        /// will not help.
        case gaveUp
    }

    /// A node needs a token at `now`: the stored one while it is younger than the renewal age (or
    /// than the minimum interval, should the renewal age be shorter), else a new one.
    package static func prepare(stored: SharedCredential?, now: Date, timing: Timing) -> Step {
        guard let stored else { return .mint(replacing: nil, afterRefusal: false) }
        let age = now.timeIntervalSince(stored.issuedAt)
        if age < timing.renewalAge || age < timing.minimumInterval { return .use(stored) }
        return .mint(replacing: stored, afterRefusal: false)
    }

    /// APNs refused `refused` at `now`: another node's newer token if there is one; else one
    /// renewal, even within the minimum interval — but not a second one within it.
    package static func refusal(of refused: String, stored: SharedCredential?, now: Date, timing: Timing) -> Step {
        guard let stored else { return .mint(replacing: nil, afterRefusal: true) }
        if stored.value != refused { return .use(stored) }
        if stored.afterRefusal && now.timeIntervalSince(stored.issuedAt) < timing.minimumInterval { return .gaveUp }
        return .mint(replacing: stored, afterRefusal: true)
    }
}
