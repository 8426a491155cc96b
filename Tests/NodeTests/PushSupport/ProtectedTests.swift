import Dispatch
import Testing
@testable import PushSupport

/// `Protected` under contention. Besides the counts, this is the lock's check under `make sanitize`:
/// the threads share a plain array through it, so a lock ThreadSanitizer cannot see (as
/// `Synchronization.Mutex` on Linux, whose contended path TSan misses) fails the TSan run here.
@Suite struct ProtectedTests {
    @Test func contendedUpdatesAreNeitherLostNorTorn() {
        let threads = 8
        let rounds = 2_000
        let box = Protected((count: 0, log: [Int]()))
        DispatchQueue.concurrentPerform(iterations: threads) { thread in
            for round in 0..<rounds {
                box.withLock { state in
                    state.count += 1
                    // A read-modify-write of a heap buffer, not one word: a lost update shows
                    // as a count and a log that disagree.
                    state.log.append(thread * rounds + round)
                }
            }
        }
        let (count, log) = box.withLock { ($0.count, $0.log) }
        #expect(count == threads * rounds)
        #expect(log.count == count)
        #expect(Set(log).count == count)
    }

    @Test func returnsAndRethrowsTheBodysOutcome() {
        struct Refused: Error {}
        let box = Protected(41)
        #expect(box.withLock { value -> Int in value += 1; return value } == 42)
        #expect(throws: Refused.self) { try box.withLock { _ in throw Refused() } }
        #expect(box.withLock { $0 } == 42)
    }
}
