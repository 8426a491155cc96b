import Foundation
import PushCrypto
import PushProtocol
import PushStore

/// What one account may hold (PROTOCOL §7 `limits.maxRegistrationsPerAccount`,
/// `limits.maxSpacesPerAccount`) and who may take a Web Push endpoint over (PROTOCOL §3
/// `token.in_use`): pure rules over what the store holds now.
enum AccountBounds {
    /// Refuses `account.limit_reached` when saving `registration` would leave its account over
    /// `limit`. The registrations the save replaces (the same id, or the same device's token of
    /// the same platform and app, which a rotated token removes) do not count.
    static func checkRegistration(_ registration: Registration, held: [Registration], limit: Int) throws(ServiceError) {
        let kept = held.filter { other in other.id != registration.id && !registration.replaces(other) }
        guard kept.count < limit else {
            throw .refused(.accountLimitReached, "an account may hold at most \(limit) registrations")
        }
    }

    /// Refuses `account.limit_reached` when adding `spaceKey` would leave the account over `limit`;
    /// registering a space it holds again is no change.
    static func checkSpace(_ spaceKey: String, held: Set<String>, limit: Int) throws(ServiceError) {
        guard held.contains(spaceKey) || held.count < limit else {
            throw .refused(.accountLimitReached, "an account may register at most \(limit) spaces")
        }
    }

    /// Refuses `token.in_use` when a Web Push endpoint held by another account is registered
    /// without the `auth` secret it was registered with: a browser re-registering its own
    /// subscription (under a new account) knows it, someone who only learnt the URL does not, and
    /// taking the endpoint over with other keys would make its owner's pushes undecryptable.
    /// FCM and APNs tokens move to the caller as before (their owner's app re-registers them).
    static func checkOwner(_ registration: Registration, existing: Registration?) throws(ServiceError) {
        guard registration.address.platform == .webpush, let existing, existing.account != registration.account else { return }
        guard let held = existing.address.auth, let given = registration.address.auth, ConstantTime.equals(held, given) else {
            throw .refused(.tokenInUse, "another account holds this endpoint", field: "token")
        }
    }
}
