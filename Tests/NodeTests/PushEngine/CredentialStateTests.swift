import Foundation
import Testing
@testable import PushEngine

/// The credential rule both token caches share, stepped on a manual clock.
@Suite struct CredentialStateTests {
    private let clock = ManualClock()

    /// A credential minted now, renewed after `renewAfter` and sent at most `usableFor`.
    private func minted(_ value: String, renewAfter: TimeInterval = 50 * 60,
                        usableFor: TimeInterval = 60 * 60) -> CredentialState.Minted {
        CredentialState.Minted(value: value, renewAt: clock.now.addingTimeInterval(renewAfter),
                               usableUntil: clock.now.addingTimeInterval(usableFor))
    }

    @Test func mintsFirstThenReusesUntilTheRenewalTime() {
        var state = CredentialState()
        #expect(state.needsMint(at: clock.now) && state.current == nil && state.generation == 0)
        let first = state.minted(minted("one"), at: clock.now)
        #expect(first && state.current == "one" && state.generation == 1)
        clock.advance(by: 50 * 60 - 1)
        #expect(!state.needsMint(at: clock.now))
        clock.advance(by: 1)
        #expect(state.needsMint(at: clock.now))
        let second = state.minted(minted("two"), at: clock.now)
        #expect(second && state.current == "two" && state.generation == 2)
    }

    @Test func aFailedMintKeepsAStillUsableCredential() {
        var state = CredentialState()
        let none = state.minted(nil, at: clock.now)
        #expect(!none)  // nothing at all yet
        let first = state.minted(minted("one"), at: clock.now)
        #expect(first)
        clock.advance(by: 55 * 60)
        #expect(state.needsMint(at: clock.now))
        let kept = state.minted(nil, at: clock.now)
        #expect(kept && state.current == "one")  // 5 minutes left
        clock.advance(by: 5 * 60)
        let lapsed = state.minted(nil, at: clock.now)
        #expect(!lapsed)
        #expect(state.generation == 1)
    }

    @Test func aRefusalRenewsOnceThenGivesUp() {
        var state = CredentialState()
        _ = state.minted(minted("one"), at: clock.now)
        clock.advance(by: 60)
        // Well within the renewal time, a refusal mints at once…
        #expect(state.refusal(of: 1) == nil)
        let renewal = state.mintedAfterRefusal(minted("two"))
        #expect(renewal == .renewed && state.generation == 2)
        // …a late answer to a request with the old one does not mint again…
        #expect(state.refusal(of: 1) == .alreadyRenewed)
        // …and the renewed one refused before it ever worked means renewing will not help.
        #expect(state.refusal(of: 2) == .gaveUp)
        #expect(!state.needsMint(at: clock.now))  // nor does the refusal move the renewal time
    }

    @Test func aCredentialThatWorkedMayBeRenewedOnceMore() {
        var state = CredentialState()
        _ = state.minted(minted("one"), at: clock.now)
        #expect(state.refusal(of: 1) == nil)
        _ = state.mintedAfterRefusal(minted("two"))
        state.accepted(generation: 1)  // an old generation's acceptance changes nothing
        #expect(state.refusal(of: 2) == .gaveUp)
        state.accepted(generation: 2)
        #expect(state.refusal(of: 2) == nil)  // revoked after working: one renewal again
        let failed = state.mintedAfterRefusal(nil)
        #expect(failed == .gaveUp)  // the mint failed
        #expect(state.current == "two" && state.generation == 2)
    }

    @Test func theRegularRotationAfterARefusalMayBeRenewedAgain() {
        var state = CredentialState()
        _ = state.minted(minted("one"), at: clock.now)
        _ = state.mintedAfterRefusal(minted("two"))
        clock.advance(by: 50 * 60)
        #expect(state.needsMint(at: clock.now))
        _ = state.minted(minted("three"), at: clock.now)
        #expect(state.refusal(of: 3) == nil)
    }
}
