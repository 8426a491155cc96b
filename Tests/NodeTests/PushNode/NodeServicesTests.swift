import Foundation
import Testing
@testable import PushNode
@testable import PushSupport

/// `NodeServices` with recording doubles (no sockets, no threads): the start order, the drain
/// order by stage and within a stage, a failed start, a second stop.
@Suite struct NodeServicesTests {
    /// Records every call into one shared journal.
    final class Recorder: LongRunning {
        let name: String
        let journal: Protected<[String]>
        let failsToStart: Bool
        let finishes: Bool

        init(_ name: String, _ journal: Protected<[String]>, failsToStart: Bool = false, finishes: Bool = true) {
            self.name = name
            self.journal = journal
            self.failsToStart = failsToStart
            self.finishes = finishes
        }

        struct Refused: Error {}

        func start() throws {
            journal.withLock { $0.append("start \(name)") }
            if failsToStart { throw Refused() }
        }

        func stop() { journal.withLock { $0.append("stop \(name)") } }

        func drain(timeout: Double) -> Bool {
            journal.withLock { $0.append("drain \(name)") }
            return finishes
        }
    }

    let journal = Protected<[String]>([])
    var calls: [String] { journal.withLock { $0 } }

    /// Started as a node starts: the HTTP listeners first, then the store, the engine, the
    /// any-sync door.
    func startedLikeANode() throws -> NodeServices {
        let services = NodeServices(drainTimeout: 1)
        try services.start(.doors, Recorder("api", journal))
        try services.start(.doors, Recorder("admin", journal))
        try services.start(.storage, Recorder("storage", journal))
        try services.start(.delivery, Recorder("delivery", journal))
        try services.start(.doors, Recorder("anysync", journal))
        return services
    }

    @Test func partsStartInTheOrderGiven() throws {
        let services = try startedLikeANode()
        #expect(calls == ["start api", "start admin", "start storage", "start delivery", "start anysync"])
        #expect(services.parts.map(\.service.name) == ["api", "admin", "storage", "delivery", "anysync"])
    }

    @Test func stopDrainsTheDoorsThenDeliveryThenStorageEachInReverseStartOrder() throws {
        let services = try startedLikeANode()
        journal.withLock { $0 = [] }
        var stages: [NodeServices.Stage] = []
        services.stop { stage, unfinished in
            stages.append(stage)
            #expect(unfinished.isEmpty)
        }
        // A stage's parts are all asked to stop before any is drained: no door accepts while
        // another one drains.
        #expect(calls == ["stop anysync", "stop admin", "stop api", "drain anysync", "drain admin", "drain api",
                          "stop delivery", "drain delivery",
                          "stop storage", "drain storage"])
        #expect(stages == [.doors, .delivery, .storage])
        #expect(services.parts.isEmpty)
    }

    @Test func stopIsIdempotent() throws {
        let services = try startedLikeANode()
        services.stop()
        let afterFirst = calls
        var heard = 0
        services.stop { _, _ in heard += 1 }
        #expect(calls == afterFirst)
        #expect(heard == 0)
    }

    @Test func aPartThatFailsToStartDrainsItselfAndThePartsStartedBefore() throws {
        let services = NodeServices(drainTimeout: 1)
        try services.start(.doors, Recorder("api", journal))
        try services.start(.storage, Recorder("storage", journal))
        #expect(throws: Recorder.Refused.self) {
            try services.start(.delivery, Recorder("delivery", journal, failsToStart: true))
        }
        #expect(calls == ["start api", "start storage", "start delivery", "drain delivery",
                          "stop api", "drain api", "stop storage", "drain storage"])
        // The group is stopped for good: a later part is drained at once and refused.
        #expect(throws: NodeServices.Stopped.self) { try services.start(.doors, Recorder("late", journal)) }
        #expect(calls.suffix(1) == ["drain late"])
        #expect(!calls.contains("start late"))
    }

    @Test func aStageNamesThePartsThatDidNotFinishInTime() throws {
        let services = NodeServices(drainTimeout: 1)
        try services.start(.doors, Recorder("api", journal, finishes: false))
        try services.start(.doors, Recorder("admin", journal))
        try services.start(.storage, Recorder("storage", journal))
        var unfinishedByStage: [NodeServices.Stage: [String]] = [:]
        services.stop { unfinishedByStage[$0] = $1 }
        #expect(unfinishedByStage == [.doors: ["api"], .storage: []])
        // A door that ran out of time does not keep storage open.
        #expect(calls.last == "drain storage")
    }

    @Test func theStoreIsClosedOnceHoweverOftenItIsDrained() {
        let closed = Protected(0)
        let storage = StoreClosing { closed.withLock { $0 += 1 } }
        storage.stop()
        #expect(storage.drain(timeout: 0))
        #expect(storage.drain(timeout: 0))
        #expect(closed.withLock { $0 } == 1)
    }
}
