import Foundation
import PushCrypto

/// The APNs provider JWT: reused, rotated once it is `rotationAge` old (APNs refuses tokens
/// older than an hour), never minted more often than every `minimumAge` (APNs answers
/// `TooManyProviderTokenUpdates`) except once after APNs refused it.
package final class APNsProviderTokens: ProviderCredentials, @unchecked Sendable {
    package static let rotationAge: TimeInterval = 50 * 60
    package static let minimumAge: TimeInterval = 20 * 60

    private let signer: APNsProviderToken
    private let lock = NSLock()
    private var token: String?
    private var issuedAt = Date.distantPast
    private var currentGeneration = 0
    private var renewedAfterRefusal = -1
    private var mints = 0

    package init(signer: APNsProviderToken) {
        self.signer = signer
    }

    package var generation: Int { lock.withLock { currentGeneration } }
    package var refreshes: Int { lock.withLock { mints } }

    package func current() -> String? { lock.withLock { token } }

    package func prepare(now: Date) -> Bool {
        lock.withLock {
            let age = now.timeIntervalSince(issuedAt)
            if token != nil, age < Self.rotationAge { return true }
            // Past the rotation age a token is always older than the minimum age.
            return mintLocked(now: now)
        }
    }

    package func accepted(generation: Int) {
        lock.withLock {
            if renewedAfterRefusal == generation { renewedAfterRefusal = -1 }
        }
    }

    package func refused(generation refused: Int, now: Date) -> CredentialRenewal {
        lock.withLock {
            if refused < currentGeneration { return .alreadyRenewed }
            if renewedAfterRefusal == currentGeneration { return .gaveUp }
            guard mintLocked(now: now) else { return .gaveUp }
            renewedAfterRefusal = currentGeneration
            return .renewed
        }
    }

    private func mintLocked(now: Date) -> Bool {
        guard let fresh = try? signer.token(issuedAt: Int(now.timeIntervalSince1970)) else { return false }
        token = fresh
        issuedAt = now
        currentGeneration += 1
        mints += 1
        return true
    }
}
