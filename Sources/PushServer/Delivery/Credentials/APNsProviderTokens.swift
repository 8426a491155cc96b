import Foundation
import PushCrypto

/// The APNs provider JWT: reused, rotated once it is `rotationAge` old (APNs refuses tokens
/// older than an hour), never minted more often than every `minimumAge` (APNs answers
/// `TooManyProviderTokenUpdates`) except once after APNs refused it.
public final class APNsProviderTokens: ProviderCredentials, @unchecked Sendable {
    public static let rotationAge: TimeInterval = 50 * 60
    public static let minimumAge: TimeInterval = 20 * 60

    private let signer: APNsProviderToken
    private let lock = NSLock()
    private var token: String?
    private var issuedAt = Date.distantPast
    private var currentGeneration = 0
    private var renewedAfterRefusal = -1
    private var mints = 0

    public init(signer: APNsProviderToken) {
        self.signer = signer
    }

    public var generation: Int { lock.withLock { currentGeneration } }
    public var refreshes: Int { lock.withLock { mints } }

    public func current() -> String? { lock.withLock { token } }

    public func prepare(now: Date) -> Bool {
        lock.withLock {
            let age = now.timeIntervalSince(issuedAt)
            if token != nil, age < Self.rotationAge { return true }
            // Past the rotation age a token is always older than the minimum age.
            return mintLocked(now: now)
        }
    }

    public func accepted(generation: Int) {
        lock.withLock {
            if renewedAfterRefusal == generation { renewedAfterRefusal = -1 }
        }
    }

    public func refused(generation refused: Int, now: Date) -> CredentialRenewal {
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
