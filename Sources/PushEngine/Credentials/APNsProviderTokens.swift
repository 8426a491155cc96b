import Foundation
import PushCrypto
import PushSupport

/// The APNs provider JWT: reused, rotated once it is `rotationAge` old (APNs refuses tokens
/// older than an hour), so never minted more often than every 20 minutes (APNs answers
/// `TooManyProviderTokenUpdates`) except once after APNs refused it (`CredentialState`).
package final class APNsProviderTokens: ProviderCredentials, Sendable {
    package static let rotationAge: TimeInterval = 50 * 60

    private let signer: APNsProviderToken
    private let state = Protected(CredentialState())

    package init(signer: APNsProviderToken) {
        self.signer = signer
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
        guard let token = try? signer.token(issuedAt: Int(now.timeIntervalSince1970)) else { return nil }
        let rotation = now.addingTimeInterval(Self.rotationAge)
        return CredentialState.Minted(value: token, renewAt: rotation, usableUntil: rotation)
    }
}
