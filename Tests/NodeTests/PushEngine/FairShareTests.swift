import Foundation
import Testing
@testable import PushEngine
@testable import PushStore

/// The fair share of registrant-chosen origins (issue 26): per-origin windows, per-account caps,
/// the circuit of an origin that stopped answering and its short probes, bounded memory; and the
/// lane returning what may not go to the queue untried.
@Suite struct FairShareTests {
    private let hostile = "https://hostile.example", calm = "https://calm.example"
    private var settings: FairShare.Settings {
        var settings = FairShare.Settings()
        settings.originSlots = 2
        settings.accountSlots = 3
        return settings
    }

    @Test func anOriginHasAtMostItsWindowOutstandingAndAnswersWidenIt() {
        var share = FairShare(settings: settings, maxWindow: 4)
        #expect(share.admit(1, origin: hostile, account: "a", now: t0) == .send(answerTimeout: nil))
        #expect(share.admit(2, origin: hostile, account: "b", now: t0) == .send(answerTimeout: nil))
        #expect(share.admit(3, origin: hostile, account: "c", now: t0) == .wait(until: t0.addingTimeInterval(1)))
        #expect(share.admit(4, origin: calm, account: "c", now: t0) == .send(answerTimeout: nil))  // another origin goes
        share.finished(1, .answered, now: t0)
        // One answer freed a slot and widened the window by one: two more go, not three.
        #expect(share.admit(5, origin: hostile, account: "c", now: t0) == .send(answerTimeout: nil))
        #expect(share.admit(6, origin: hostile, account: "d", now: t0) == .send(answerTimeout: nil))
        #expect(share.admit(7, origin: hostile, account: "e", now: t0) == .wait(until: t0.addingTimeInterval(1)))
        // The window stops at the lane's width.
        for id in [2, 5, 6] as [Int64] { share.finished(id, .answered, now: t0) }
        #expect(share.origins[hostile]?.window == 4)
        // Tries with no registrant-chosen origin (FCM, APNs) are not tracked.
        #expect(share.admit(9, origin: nil, account: "a", now: t0) == .send(answerTimeout: nil))
        #expect(share.outstanding == 1)
    }

    @Test func oneAccountHasAtMostItsSlotsOverAllOrigins() {
        var share = FairShare(settings: settings, maxWindow: 100)
        for id in 1...3 as ClosedRange<Int64> {
            #expect(share.admit(id, origin: "https://o\(id).example", account: "a", now: t0) == .send(answerTimeout: nil))
        }
        #expect(share.admit(4, origin: "https://o4.example", account: "a", now: t0) == .wait(until: t0.addingTimeInterval(1)))
        #expect(share.admit(5, origin: "https://o4.example", account: "b", now: t0) == .send(answerTimeout: nil))
        share.finished(2, .failed, now: t0)
        #expect(share.admit(6, origin: "https://o4.example", account: "a", now: t0) == .send(answerTimeout: nil))
        for id in [1, 3, 5, 6] as [Int64] { share.finished(id, .failed, now: t0) }
        #expect(share.accounts.isEmpty)
        share.finished(6, .answered, now: t0)  // reported twice: ignored
        #expect(share.outstanding == 0)
    }

    @Test func anOriginThatStopsAnsweringIsHeldThenProbedWithAShortTimeout() {
        var share = FairShare(settings: settings, maxWindow: 100)
        _ = share.admit(1, origin: hostile, account: "a", now: t0)
        _ = share.admit(2, origin: hostile, account: "b", now: t0)
        let late = t0.addingTimeInterval(30)
        share.finished(1, .unanswered, now: late)
        #expect(share.origins[hostile]?.openUntil == nil)  // one silence is not enough
        share.finished(2, .unanswered, now: late)
        let reopens = late.addingTimeInterval(30)
        #expect(share.admit(3, origin: hostile, account: "c", now: late) == .wait(until: reopens))
        #expect(share.admit(3, origin: calm, account: "c", now: late) == .send(answerTimeout: nil))
        // Closed again: one probe at a time, with the short answer timeout.
        #expect(share.admit(4, origin: hostile, account: "c", now: reopens) == .send(answerTimeout: 5))
        #expect(share.admit(5, origin: hostile, account: "d", now: reopens) == .wait(until: reopens.addingTimeInterval(1)))
        // The probe gets no answer either: open twice as long.
        let probed = reopens.addingTimeInterval(5)
        share.finished(4, .unanswered, now: probed)
        #expect(share.admit(5, origin: hostile, account: "d", now: probed) == .wait(until: probed.addingTimeInterval(60)))
        // Answered at last: the full timeout and the window again, and the next opening is short.
        let later = probed.addingTimeInterval(60)
        #expect(share.admit(6, origin: hostile, account: "d", now: later) == .send(answerTimeout: 5))
        share.finished(6, .answered, now: later)
        #expect(share.admit(7, origin: hostile, account: "d", now: later) == .send(answerTimeout: nil))
        #expect(share.origins[hostile]?.nextOpening == 30)
    }

    @Test func theOpeningDoublesUpToItsCeiling() {
        var circuit = OriginCircuit(window: 4, opening: 30, now: t0)
        var settings = settings
        settings.openAfter = 1
        var now = t0
        for expected in [30.0, 60, 120, 240, 480, 600, 600] {
            circuit.unanswered(now: now, settings: settings)
            #expect(circuit.openUntil == now.addingTimeInterval(expected))
            now = circuit.openUntil!
        }
        #expect(circuit.window == 1)
    }

    @Test func attackerChosenOriginsCannotGrowItsMemory() {
        var settings = settings
        settings.maxOrigins = 100
        var share = FairShare(settings: settings, maxWindow: 100)
        // Origins that stopped answering are kept over idle ones, but not past the bound.
        for id in 1...1_000 as ClosedRange<Int64> {
            let now = t0.addingTimeInterval(Double(id))
            _ = share.admit(id, origin: "https://h\(id).example", account: "a\(id)", now: now)
            share.finished(id, id % 2 == 0 ? .unanswered : .answered, now: now)
            #expect(share.origins.count <= 100)
        }
        // A try outstanding keeps its origin whatever the bound.
        _ = share.admit(5_000, origin: "https://busy.example", account: "x", now: t0.addingTimeInterval(2_000))
        for id in 1_001...1_200 as ClosedRange<Int64> {
            _ = share.admit(id, origin: "https://h\(id).example", account: "a\(id)", now: t0.addingTimeInterval(2_000))
            share.finished(id, .unanswered, now: t0.addingTimeInterval(2_000))
        }
        #expect(share.origins["https://busy.example"]?.inFlight == 1)
        #expect(share.origins.count <= 100)
    }

    @Test func theLaneReturnsTriesPastTheShareUntriedAndProbesWithTheShortTimeout() {
        var fair = settings
        fair.openAfter = 1
        fair.busyRetry = 0.5
        let lane = LaneUnderTest(provider: .webpush, maxInFlight: 8, claimBatch: 8, fairShare: fair)
        func row(_ id: Int64, _ origin: String, account: String = "A") -> OutboxEntry {
            lane.entry(id, platform: .webpush, token: "\(origin)/sub/\(id)", account: account)
        }
        let rows = [row(1, hostile, account: "B"), row(2, hostile, account: "C"), row(3, hostile, account: "D"),
                    row(4, calm), row(5, hostile, account: "E")]
        let soon = lane.now.addingTimeInterval(0.5)
        #expect(lane.claimOnPass(rows) == [.release([3, 5], until: soon), .send([rows[0], rows[1], rows[3]], generation: 0)])
        #expect(lane.machine.inFlight == 3)
        // The released rows bring the next claim forward (the poll interval is 1 s) to when they are due.
        #expect(lane.machine.nextPass() == soon)
        _ = lane.finished(rows[3], LaneUnderTest.answer(201))
        // The hostile origin's two tries time out: it is held, and its rows wait out the opening.
        lane.clock.advance(by: 30)
        _ = lane.finished(rows[0], .failed(.timedOut))
        _ = lane.finished(rows[1], .failed(.timedOut))
        let reopens = lane.now.addingTimeInterval(30)
        #expect(lane.claimOnPass([rows[2], row(6, calm)]) == [.release([3], until: reopens), .send([row(6, calm)], generation: 0)])
        lane.clock.advance(by: 30)
        #expect(lane.claimOnPass([rows[2], rows[4]])
                == [.release([5], until: lane.now.addingTimeInterval(0.5)), .send([rows[2]], generation: 0, answerTimeout: 5)])
    }

    @Test func fcmTriesAreNotSharedOut() {
        let lane = LaneUnderTest(provider: .fcm, maxInFlight: 40, claimBatch: 40, fairShare: settings)
        let rows = (1...30).map { lane.entry(Int64($0)) }  // one account, one operator-configured origin
        #expect(lane.claimOnPass(rows) == [.send(rows, generation: 0)])
    }
}
