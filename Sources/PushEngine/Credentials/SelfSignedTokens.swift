import Foundation
import PushCrypto
import PushSupport

/// A JWT the node signs itself and sends as the bearer credential (the APNs provider token,
/// the HarmonyOS service-account JWT): reused, signed anew once it is `rotationAge` old, never
/// more often except once after the provider refused it (`CredentialState`).
package final class SelfSignedTokens: ProviderCredentials, Sendable {
    /// Signs a token issued at the given Unix second.
    package typealias Sign = @Sendable (_ issuedAt: Int) throws -> String

    private let rotationAge: TimeInterval
    private let sign: Sign
    private let state = Protected(CredentialState())

    package init(rotationAge: TimeInterval, sign: @escaping Sign) {
        self.rotationAge = rotationAge
        self.sign = sign
    }

    package var generation: Int { state.withLock { $0.generation } }

    package func current() -> String? { state.withLock { $0.current } }

    package func prepare(now: Date) -> Bool {
        state.withLock { $0.needsMint(at: now) ? $0.minted(mint(now: now), at: now) : true }
    }

    package func accepted(generation: Int) {
        state.withLock { $0.accepted(generation: generation) }
    }

    package func refused(generation: Int, now: Date) -> CredentialRenewal {
        state.withLock { $0.refusal(of: generation) ?? $0.mintedAfterRefusal(mint(now: now)) }
    }

    /// Signs a token issued at `now`; an old token is not sent past the rotation age.
    private func mint(now: Date) -> CredentialState.Minted? {
        guard let token = try? sign(Int(now.timeIntervalSince1970)) else { return nil }
        let rotation = now.addingTimeInterval(rotationAge)
        return CredentialState.Minted(value: token, renewAt: rotation, usableUntil: rotation)
    }
}

/// The APNs provider JWT: renewed at 50 minutes (APNs refuses tokens older than an hour), so
/// never signed more often than every 20 minutes (APNs answers `TooManyProviderTokenUpdates`).
package enum APNsProviderTokens {
    package static let rotationAge: TimeInterval = 50 * 60

    package static func make(signer: APNsProviderToken) -> SelfSignedTokens {
        SelfSignedTokens(rotationAge: rotationAge) { try signer.token(issuedAt: $0) }
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
