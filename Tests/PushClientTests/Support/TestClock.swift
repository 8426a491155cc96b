import Foundation
import PushSupport
@testable import PushClient
import PushProtocol

/// Virtual time for tests. `autoAdvance`: every sleep returns at once after moving the clock
/// forward by its duration (a single worker's retries then run instantly, at exact virtual times).
/// Manual: a sleep suspends until `advance(by:)` passes its deadline.
final class TestClock: PushClock, @unchecked Sendable {
    static let epoch = Date(timeIntervalSince1970: 1_700_000_000)

    private struct Sleeper {
        let id: Int
        let deadline: Duration
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var offset: Duration = .zero
        var slept: [Duration] = []
        var sleepers: [Sleeper] = []
        var cancelled: Set<Int> = []
        var nextId = 0
        var sleeperWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Protected(State())
    let autoAdvance: Bool

    init(autoAdvance: Bool = true) { self.autoAdvance = autoAdvance }

    func now() -> Date { Self.epoch.addingTimeInterval(state.withLock { $0.offset }.timeInterval) }

    /// Virtual seconds since the start.
    var elapsed: Duration { state.withLock { $0.offset } }

    /// Every sleep asked for, in order.
    var slept: [Duration] { state.withLock { $0.slept } }

    func sleep(for duration: Duration) async throws {
        if autoAdvance {
            state.withLock {
                $0.slept.append(duration)
                $0.offset += duration
            }
            await Task.yield()
            return
        }
        let id = state.withLock { s -> Int in
            s.nextId += 1
            s.slept.append(duration)
            return s.nextId
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (c: CheckedContinuation<Void, any Error>) in
                let (cancelled, ready) = state.withLock { s -> (Bool, [CheckedContinuation<Void, Never>]) in
                    if s.cancelled.remove(id) != nil { return (true, []) }
                    s.sleepers.append(Sleeper(id: id, deadline: s.offset + duration, continuation: c))
                    return (false, Self.takeSatisfied(&s))
                }
                if cancelled { c.resume(throwing: CancellationError()) }
                ready.forEach { $0.resume() }
            }
        } onCancel: {
            let sleeper = state.withLock { s -> Sleeper? in
                if let i = s.sleepers.firstIndex(where: { $0.id == id }) { return s.sleepers.remove(at: i) }
                s.cancelled.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves time forward and wakes the sleepers whose deadline has come.
    func advance(by duration: Duration) {
        let due = state.withLock { s -> [Sleeper] in
            s.offset += duration
            let due = s.sleepers.filter { $0.deadline <= s.offset }
            s.sleepers.removeAll { $0.deadline <= s.offset }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Suspends until at least `count` tasks are sleeping on this clock.
    func waitForSleepers(_ count: Int) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if s.sleepers.count >= count { return true }
                s.sleeperWaiters.append((count, c))
                return false
            }
            if now { c.resume() }
        }
    }

    private static func takeSatisfied(_ s: inout State) -> [CheckedContinuation<Void, Never>] {
        let count = s.sleepers.count
        let ready = s.sleeperWaiters.filter { $0.count <= count }.map(\.continuation)
        s.sleeperWaiters.removeAll { $0.count <= count }
        return ready
    }
}
