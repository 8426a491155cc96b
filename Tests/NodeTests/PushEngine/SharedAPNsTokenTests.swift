import Foundation
import PushCrypto
import PushStore
import PushSupport
import Testing
@testable import PushEngine

/// The store side of a shared token, in memory: what `PostgresStore` does with one row per name.
final class MemorySharedCredentials: SharedCredentialStore {
    let rows = Protected<[String: SharedCredential]>([:])
    let writes = Protected(0)

    func sharedCredential(_ name: String) throws -> SharedCredential? { rows.withLock { $0[name] } }

    func replaceSharedCredential(_ name: String, expected: SharedCredential?, with new: SharedCredential) throws -> Bool {
        rows.withLock { rows in
            guard rows[name]?.value == expected?.value else { return false }
            rows[name] = new
            writes.withLock { $0 += 1 }
            return true
        }
    }
}

/// One APNs provider token per key for every node sharing a database (PROTOCOL §10): renewed
/// by one node at the renewal age, never twice within the minimum interval but once after a refusal.
@Suite struct SharedAPNsTokenTests {
    let timing = SharedTokenRule.Timing(renewalAge: 50 * 60, minimumInterval: 20 * 60)

    @Test func theRule() {
        let stored = SharedCredential(value: "T1", issuedAt: t0)
        #expect(SharedTokenRule.prepare(stored: nil, now: t0, timing: timing) == .mint(replacing: nil, afterRefusal: false))
        #expect(SharedTokenRule.prepare(stored: stored, now: t0.addingTimeInterval(49 * 60), timing: timing) == .use(stored))
        #expect(SharedTokenRule.prepare(stored: stored, now: t0.addingTimeInterval(50 * 60), timing: timing)
                == .mint(replacing: stored, afterRefusal: false))
        let short = SharedTokenRule.Timing(renewalAge: 5, minimumInterval: 20)
        #expect(SharedTokenRule.prepare(stored: stored, now: t0.addingTimeInterval(10), timing: short) == .use(stored),
                "a renewal age under the interval waits for the interval")
        #expect(SharedTokenRule.refusal(of: "T0", stored: stored, now: t0, timing: timing) == .use(stored), "another node renewed")
        #expect(SharedTokenRule.refusal(of: "T1", stored: stored, now: t0.addingTimeInterval(60), timing: timing)
                == .mint(replacing: stored, afterRefusal: true))
        let renewed = SharedCredential(value: "T2", issuedAt: t0.addingTimeInterval(60), afterRefusal: true)
        #expect(SharedTokenRule.refusal(of: "T2", stored: renewed, now: t0.addingTimeInterval(120), timing: timing) == .gaveUp)
        #expect(SharedTokenRule.refusal(of: "T2", stored: renewed, now: t0.addingTimeInterval(60 + 20 * 60), timing: timing)
                == .mint(replacing: renewed, afterRefusal: true))
    }

    private func node(_ store: MemorySharedCredentials, key: P256.PrivateKey) -> SelfSignedTokens {
        APNsProviderTokens.make(signer: APNsProviderToken(keyID: "KEYID12345", teamID: "TEAMID1234", signer: ES256Signer(key: key)),
                                timing: timing, shared: store)
    }

    @Test func twoNodesSendOneTokenAndOneRenewsIt() throws {
        let store = MemorySharedCredentials()
        let key = try P256.PrivateKey.generate()
        let a = node(store, key: key), b = node(store, key: key)
        #expect(a.prepare(now: t0) && b.prepare(now: t0.addingTimeInterval(1)))
        #expect(a.current() == b.current() && store.writes.withLock { $0 } == 1)
        #expect(store.rows.withLock { $0["apns:TEAMID1234:KEYID12345"]?.value } == a.current())
        let first = a.current()
        // 50 minutes on: whichever asks first renews, the other reads its token.
        #expect(b.prepare(now: t0.addingTimeInterval(50 * 60)) && a.prepare(now: t0.addingTimeInterval(50 * 60 + 1)))
        #expect(a.current() == b.current() && a.current() != first && store.writes.withLock { $0 } == 2)
        // A refusal renews once, even within 20 minutes; the other node's refusal of the same token reads it.
        let renewedAt = t0.addingTimeInterval(51 * 60)
        #expect(a.refused(generation: a.generation, now: renewedAt) == .renewed)
        #expect(b.refused(generation: b.generation, now: renewedAt) == .alreadyRenewed)
        #expect(a.current() == b.current() && store.writes.withLock { $0 } == 3)
        // Refused again within the interval: renewing will not help.
        #expect(b.refused(generation: b.generation, now: renewedAt.addingTimeInterval(60)) == .gaveUp)
        #expect(store.writes.withLock { $0 } == 3)
    }

    @Test func aNodeSeesAnotherNodesRenewalWithinItsReadInterval() throws {
        let store = MemorySharedCredentials()
        let key = try P256.PrivateKey.generate()
        let a = node(store, key: key), b = node(store, key: key)
        #expect(a.prepare(now: t0) && b.prepare(now: t0))
        #expect(a.refused(generation: a.generation, now: t0.addingTimeInterval(10)) == .renewed)
        #expect(b.prepare(now: t0.addingTimeInterval(11)) && b.current() != a.current(), "read at most every 30 s")
        #expect(b.prepare(now: t0.addingTimeInterval(30)) && b.current() == a.current())
    }
}
