import Foundation
import PushCrypto
import PushStore
import PushSupport

/// A JWT the node signs itself and sends as the bearer credential (the APNs provider token,
/// the HarmonyOS service-account JWT): reused, signed anew once it is `timing.renewalAge` old,
/// never more often except once after the provider refused it.
///
/// Alone, the token lives in this process (`CredentialState`). With `Shared` (PostgreSQL), it
/// lives in the database under its name and every node sends the same one
/// (`SelfSignedTokens+Shared.swift`): `SharedTokenRule` decides, one node renews, the others
/// read its token.
package final class SelfSignedTokens: ProviderCredentials, Sendable {
    /// Signs a token issued at the given Unix second.
    package typealias Sign = @Sendable (_ issuedAt: Int) throws -> String

    /// Where the token is kept for every node sharing a database, and under which name
    /// (`apns:<team>:<key>`).
    package struct Shared: Sendable {
        package var store: any SharedCredentialStore
        package var name: String
    }

    let timing: SharedTokenRule.Timing
    /// The provider refuses a token older than this: an adopted token is not sent past it.
    let maximumAge: TimeInterval
    let sign: Sign
    let shared: Shared?
    let state = Protected(CredentialState())
    /// When the shared token is next looked up although the local copy is not due.
    let nextRead = Protected(Date.distantPast)

    package init(timing: SharedTokenRule.Timing, maximumAge: TimeInterval = 60 * 60, shared: Shared? = nil,
                 sign: @escaping Sign) {
        self.timing = timing
        self.maximumAge = maximumAge
        self.shared = shared
        self.sign = sign
    }

    /// A token kept in this process only, renewed at `rotationAge`.
    package convenience init(rotationAge: TimeInterval, sign: @escaping Sign) {
        self.init(timing: SharedTokenRule.Timing(renewalAge: rotationAge), sign: sign)
    }

    package var generation: Int { state.withLock { $0.generation } }

    package func current() -> String? { state.withLock { $0.current } }

    package func prepare(now: Date) -> Bool {
        if let shared { return prepareShared(shared, now: now) }
        return state.withLock { $0.needsMint(at: now) ? $0.minted(mint(now: now), at: now) : true }
    }

    package func accepted(generation: Int) {
        state.withLock { $0.accepted(generation: generation) }
    }

    package func refused(generation: Int, now: Date) -> CredentialRenewal {
        if let shared { return refusedShared(shared, generation: generation, now: now) }
        return state.withLock { $0.refusal(of: generation) ?? $0.mintedAfterRefusal(mint(now: now)) }
    }

    /// Signs a token issued at `now`; an old token is not sent past the renewal age.
    private func mint(now: Date) -> CredentialState.Minted? {
        guard let token = try? sign(Int(now.timeIntervalSince1970)) else { return nil }
        let rotation = now.addingTimeInterval(timing.renewalAge)
        return CredentialState.Minted(value: token, renewAt: rotation, usableUntil: rotation)
    }
}

/// The APNs provider JWT: renewed at `apns.tokenRenewal` (50 minutes; APNs refuses tokens older
/// than an hour), never more often than `apns.tokenMinInterval` (20 minutes; APNs answers
/// `TooManyProviderTokenUpdates`). One per Apple key: with a shared store, every node sharing
/// the database sends the same token (`apns:<team>:<key>`).
package enum APNsProviderTokens {
    package static func make(signer: APNsProviderToken, timing: SharedTokenRule.Timing = .init(),
                             shared: (any SharedCredentialStore)? = nil) -> SelfSignedTokens {
        SelfSignedTokens(timing: timing,
                         shared: shared.map { .init(store: $0, name: "apns:\(signer.teamID):\(signer.keyID)") }) {
            try signer.token(issuedAt: $0)
        }
    }
}

/// The HarmonyOS Push Kit service-account JWT: valid an hour (Huawei's advice, reused within
/// it), renewed at 50 minutes so a sent token always has ten minutes left.
package enum HarmonyServiceTokens {
    package static let rotationAge: TimeInterval = 50 * 60

    package static func make(signer: HarmonyServiceAccountToken) -> SelfSignedTokens {
        SelfSignedTokens(rotationAge: rotationAge) { try signer.token(issuedAt: $0) }
    }
}
