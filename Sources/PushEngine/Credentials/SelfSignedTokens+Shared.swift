import Foundation
import PushStore

/// The shared path of `SelfSignedTokens` (PROTOCOL §10: one APNs provider token per key across
/// every node on one database): the local copy is looked up again every `sharedReadInterval`
/// and whenever it is due; renewal is a compare-and-set, so of several nodes one wins and the
/// others adopt its token.
extension SelfSignedTokens {
    private var sharedReadInterval: TimeInterval { max(1, min(30, timing.minimumInterval / 4)) }

    func prepareShared(_ shared: Shared, now: Date) -> Bool {
        let due = state.withLock { $0.needsMint(at: now) }
        guard due || now >= nextRead.withLock({ $0 }) else { return true }
        nextRead.withLock { $0 = now.addingTimeInterval(sharedReadInterval) }
        guard let stored = readStored(shared) else {
            return state.withLock { $0.current != nil && !$0.needsMint(at: now) }  // the database is down: keep ours
        }
        switch SharedTokenRule.prepare(stored: stored, now: now, timing: timing) {
        case .use(let credential):
            adopt(credential, now: now)
            return true
        case .mint(let replacing, let afterRefusal):
            return renew(shared, replacing: replacing, afterRefusal: afterRefusal, now: now) != nil
        case .gaveUp:
            return false
        }
    }

    func refusedShared(_ shared: Shared, generation: Int, now: Date) -> CredentialRenewal {
        let refused: String? = state.withLock { $0.generation > generation ? nil : $0.current }
        guard let refused else { return .alreadyRenewed }
        guard let stored = readStored(shared) else { return .gaveUp }
        switch SharedTokenRule.refusal(of: refused, stored: stored, now: now, timing: timing) {
        case .use(let credential):
            adopt(credential, now: now)
            return .alreadyRenewed
        case .mint(let replacing, let afterRefusal):
            guard let won = renew(shared, replacing: replacing, afterRefusal: afterRefusal, now: now) else { return .gaveUp }
            return won ? .renewed : .alreadyRenewed
        case .gaveUp:
            return .gaveUp
        }
    }

    /// The stored token (nil inside: none is stored); nil when the database cannot be read.
    private func readStored(_ shared: Shared) -> SharedCredential?? {
        do { return .some(try shared.store.sharedCredential(shared.name)) } catch { return nil }
    }

    /// Signs a token and stores it in place of `replacing`: true when this node's token won, false
    /// when another node's did (then that one is adopted), nil when none could be had.
    private func renew(_ shared: Shared, replacing: SharedCredential?, afterRefusal: Bool, now: Date) -> Bool? {
        guard let token = try? sign(Int(now.timeIntervalSince1970)) else { return nil }
        // The JWT carries whole seconds: store the time it says, so every node ages it alike.
        let candidate = SharedCredential(value: token, issuedAt: Date(timeIntervalSince1970: now.timeIntervalSince1970.rounded(.down)),
                                         afterRefusal: afterRefusal)
        guard let won = try? shared.store.replaceSharedCredential(shared.name, expected: replacing, with: candidate) else { return nil }
        if won {
            adopt(candidate, now: now)
            return true
        }
        guard let winner = try? shared.store.sharedCredential(shared.name) else { return nil }
        adopt(winner, now: now)
        return false
    }

    /// Sends `credential` from now on (a new generation when it differs from the current one).
    private func adopt(_ credential: SharedCredential, now: Date) {
        state.withLock { state in
            guard state.current != credential.value else { return }
            let renewAt = credential.issuedAt.addingTimeInterval(max(timing.renewalAge, timing.minimumInterval))
            _ = state.minted(CredentialState.Minted(value: credential.value, renewAt: renewAt,
                                                    usableUntil: credential.issuedAt.addingTimeInterval(maximumAge)),
                             at: now)
        }
    }
}
