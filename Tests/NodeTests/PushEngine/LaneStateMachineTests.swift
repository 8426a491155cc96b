import Foundation
import PushProtocol
import PushDelivery
import Testing
import PushStore
@testable import PushEngine

/// The lane's claims, in-flight bound, lease renewal, wakeups and stop, by stepping a manual
/// clock and feeding events (LaneStateMachineAnswerTests: what each finished try comes to).
@Suite struct LaneStateMachineTests {
    @Test func theFirstPassClaimsABatchAndSendsIt() {
        let lane = LaneUnderTest()
        #expect(lane.machine.nextPass() == .distantPast)
        #expect(lane.pass() == [.claim(limit: 4)])
        let rows = [lane.entry(1), lane.entry(2)]
        #expect(lane.claimed(rows) == [.send(rows, generation: 0)])
        #expect(lane.machine.inFlight == 2)
    }

    @Test func credentialsArePreparedBeforeEachClaim() {
        let lane = LaneUnderTest(credentials: true)
        #expect(lane.pass() == [.prepareCredentials])
        #expect(lane.machine.credentialsPrepared(true, generation: 1, now: lane.now)
                == [.countCredentialRefreshes(1), .claim(limit: 4)])
        let rows = [lane.entry(1)]
        #expect(lane.claimed(rows) == [.send(rows, generation: 1)])
        lane.clock.advance(by: 1)
        #expect(lane.pass() == [.prepareCredentials])
        #expect(lane.machine.credentialsPrepared(true, generation: 1, now: lane.now) == [.claim(limit: 4)])
    }

    @Test func noCredentialsMeansUnhealthyAndATryAgainLater() {
        let lane = LaneUnderTest(credentials: true)
        _ = lane.pass()
        let failure = "token endpoint: HTTP 400 invalid_grant: Invalid JWT Signature."
        let actions = lane.machine.credentialsPrepared(false, generation: 0, failure: failure, now: lane.now)
        #expect(actions.withoutLogs == [.setHealth(.credentialsRefused, reason: DeliveryReason(.credentialsUnavailable, detail: failure))])
        #expect(actions.logs == [#"level=warn event=credentials provider=fcm state=unavailable error="\#(failure)""#])
        #expect(lane.machine.nextPass() == lane.now.addingTimeInterval(5))  // credentialRetry
        lane.clock.advance(by: 5)
        #expect(lane.pass() == [.prepareCredentials])
        // Still none: logged again, health already shown.
        #expect(lane.machine.credentialsPrepared(false, generation: 0, now: lane.now).withoutLogs == [])
    }

    @Test func aFullClaimClaimsAgainAtOnceAPartialOneAPollIntervalLater() {
        let lane = LaneUnderTest(maxInFlight: 100, claimBatch: 4)
        _ = lane.claimOnPass((1...4).map { lane.entry($0) })
        #expect(lane.machine.nextPass() == lane.now)  // more may be due
        #expect(lane.pass() == [.claim(limit: 4)])
        // Expired and orphaned rows count towards a full claim, and are counted.
        #expect(lane.claimed([lane.entry(5)], expired: 2, orphaned: 1)
                == [.count(.expired, 2), .count(.orphaned, 1), .send([lane.entry(5)], generation: 0)])
        #expect(lane.machine.nextPass() == lane.now)
        _ = lane.claimOnPass([lane.entry(6)])
        #expect(lane.machine.nextPass() == lane.now.addingTimeInterval(1))  // pollInterval
        lane.clock.advance(by: 1)
        #expect(lane.machine.nextPass() <= lane.now)
        #expect(lane.pass() == [.claim(limit: 4)])
    }

    @Test func aFailedClaimIsTriedAgainAPollIntervalLater() {
        let lane = LaneUnderTest()
        _ = lane.pass()
        lane.machine.claimFailed(now: lane.now)
        #expect(lane.machine.nextPass() == lane.now.addingTimeInterval(1))
    }

    @Test func aWakeupClaimsBeforeThePollInterval() {
        let lane = LaneUnderTest()
        _ = lane.claimOnPass([])
        #expect(lane.machine.nextPass() == lane.now.addingTimeInterval(1))
        lane.machine.wake()
        #expect(lane.machine.nextPass() == .distantPast)
        #expect(lane.pass() == [.claim(limit: 4)])
    }

    @Test func inFlightIsBoundedAndRoomBelowAQuarterBatchWaits() {
        let lane = LaneUnderTest(maxInFlight: 8, claimBatch: 8)  // threshold: 2
        let rows = (1...8).map { lane.entry($0) }
        _ = lane.claimOnPass(rows)
        lane.machine.wake()
        #expect(lane.pass() == [])  // no room: a wakeup waits for it
        #expect(lane.machine.nextPass() == lane.now.addingTimeInterval(10))  // only the lease renewal
        _ = lane.finished(rows[0], LaneUnderTest.answer(200))
        #expect(lane.pass() == [delivered(1)])  // one slot is less than a quarter batch
        _ = lane.finished(rows[1], LaneUnderTest.answer(200))
        #expect(lane.machine.nextPass() == .distantPast)  // the wakeup is still owed
        #expect(lane.pass() == [.claim(limit: 2), delivered(2)])
        #expect(lane.claimed([lane.entry(9), lane.entry(10)]) == [.send([lane.entry(9), lane.entry(10)], generation: 0)])
        #expect(lane.machine.inFlight == 8)
    }

    @Test func leasesOfTriesInFlightAreRenewedEveryRenewInterval() {
        let lane = LaneUnderTest()
        let rows = [lane.entry(3), lane.entry(1), lane.entry(2)]
        _ = lane.claimOnPass(rows)
        #expect(lane.machine.nextPass() == lane.now.addingTimeInterval(1))  // the poll comes first
        lane.clock.advance(by: 10)
        #expect(lane.pass() == [.renewClaims([1, 2, 3]), .claim(limit: 4)])
        _ = lane.claimed([])
        _ = lane.finished(rows[0], LaneUnderTest.answer(200))
        lane.clock.advance(by: 9)
        #expect(lane.pass() == [.claim(limit: 4), delivered(3)])
        lane.clock.advance(by: 1)
        #expect(lane.pass().first == .renewClaims([1, 2]))
        _ = lane.finished(rows[1], LaneUnderTest.answer(200))
        _ = lane.finished(rows[2], LaneUnderTest.answer(200))
        lane.clock.advance(by: 10)
        // Nothing in flight: nothing to renew; the next send starts a new interval.
        #expect(!lane.pass().contains(.renewClaims([1, 2])))
        _ = lane.claimed([lane.entry(4)])
        lane.clock.advance(by: 9)
        #expect(!lane.pass().contains(.renewClaims([4])))
        lane.clock.advance(by: 1)
        #expect(lane.pass().first == .renewClaims([4]))
    }

    @Test func finishedRowsAreDeletedInOneWritePerPass() {
        let lane = LaneUnderTest(maxInFlight: 100, claimBatch: 100)
        let rows = (1...3).map { lane.entry($0) }
        _ = lane.claimOnPass(rows)
        for row in rows { #expect(lane.finished(row, LaneUnderTest.answer(200)).withoutLogs == [.count(.delivered, 1)]) }
        let actions = lane.pass()
        #expect(actions.filter { if case .complete = $0 { true } else { false } } == [delivered(1, 2, 3)])
        #expect(actions.last == delivered(1, 2, 3))  // after the claim, whose sends go first
    }

    /// Under load, finished rows gather for one larger write: until `completionBatch` of them,
    /// or `completionDelay` after the first pass that saw them, or nothing is left in flight.
    @Test func finishedRowsGatherWhileTriesAreInFlight() {
        let lane = LaneUnderTest(maxInFlight: 100, claimBatch: 100, completionBatch: 3, completionDelay: 0.005)
        let isComplete = { (action: LaneStateMachine.Action) in if case .complete = action { true } else { false } }
        let rows = (1...8).map { lane.entry($0) }
        _ = lane.claimOnPass(rows)
        _ = lane.finished(rows[0], LaneUnderTest.answer(200))
        #expect(!lane.pass().contains(where: isComplete))
        #expect(lane.machine.nextPass() == lane.now.addingTimeInterval(0.005))
        _ = lane.finished(rows[1], LaneUnderTest.answer(200))
        lane.clock.advance(by: 0.004)
        #expect(!lane.pass().contains(where: isComplete))
        lane.clock.advance(by: 0.001)
        #expect(lane.pass().filter(isComplete) == [delivered(1, 2)])  // the delay, counted from the first
        #expect(lane.machine.nextPass() > lane.now.addingTimeInterval(0.005))
        for row in rows[2...4] { _ = lane.finished(row, LaneUnderTest.answer(200)) }
        #expect(lane.pass().filter(isComplete) == [delivered(3, 4, 5)])  // the batch
        _ = lane.finished(rows[5], LaneUnderTest.answer(200))
        #expect(!lane.pass().contains(where: isComplete))
        _ = lane.finished(rows[6], LaneUnderTest.answer(200))
        _ = lane.finished(rows[7], LaneUnderTest.answer(503))  // retried: rescheduled at once, not gathered
        #expect(lane.pass().filter(isComplete) == [delivered(6, 7)])  // nothing left in flight
    }

    @Test func gatheredRowsAreWrittenAtStop() {
        let lane = LaneUnderTest(maxInFlight: 100, claimBatch: 100, completionBatch: 10, completionDelay: 1)
        let rows = (1...2).map { lane.entry($0) }
        _ = lane.claimOnPass(rows)
        _ = lane.finished(rows[0], LaneUnderTest.answer(200))
        #expect(!lane.pass().contains { if case .complete = $0 { true } else { false } })
        lane.machine.stop()
        #expect(lane.pass().contains(delivered(1)))
    }

    @Test func stopWaitsForTriesInFlightThenExits() {
        let lane = LaneUnderTest()
        let rows = [lane.entry(1), lane.entry(2)]
        _ = lane.claimOnPass(rows)
        lane.machine.stop()
        lane.machine.wake()
        #expect(lane.pass() == [])  // no claims once stopping
        _ = lane.finished(rows[0], LaneUnderTest.answer(200))
        #expect(lane.pass() == [delivered(1)])
        lane.clock.advance(by: 10)
        #expect(lane.machine.nextPass() == lane.now)  // leases are still renewed while stopping
        #expect(lane.pass() == [.renewClaims([2])])
        _ = lane.finished(rows[1], LaneUnderTest.answer(503))
        #expect(lane.machine.nextPass() == .distantPast)
        #expect(lane.pass() == [.exit])
    }

    @Test func anIdleLaneStopsAtOnce() {
        let lane = LaneUnderTest()
        lane.machine.stop()
        #expect(lane.pass() == [.exit])
    }

    @Test func aRescheduledRetryIsClaimedWhenDueNotAPollLater() {
        let lane = LaneUnderTest(policy: RetryPolicy(attempts: 4, initialBackoff: 0.25, maxBackoff: 0.25))
        let row = lane.entry(1)
        _ = lane.claimOnPass([row])
        _ = lane.finished(row, LaneUnderTest.answer(503))
        _ = lane.pass()
        _ = lane.claimed([])
        #expect(lane.machine.nextPass() == lane.now.addingTimeInterval(0.25))
        lane.clock.advance(by: 0.25)
        #expect(lane.pass() == [.claim(limit: 4)])
        _ = lane.claimed([])
        #expect(lane.machine.nextPass() == lane.now.addingTimeInterval(1))  // claimed since: forgotten
    }
}

/// `.complete` of rows that were all delivered.
private func delivered(_ ids: Int64...) -> LaneStateMachine.Action {
    .complete(ids.map { FinishedDelivery(id: $0, outcome: .delivered) })
}
