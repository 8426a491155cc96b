import Foundation
import Testing
@testable import PushEngine
import PushSupport

/// `ParallelMap.map` equals `Array.map` for every size around its thresholds (inline below
/// `minimumParallel`, one item per chunk up to 64, several per chunk beyond); the ThreadSanitizer
/// run (`make sanitize`) holds its writes race-free.
@Suite struct ParallelMapTests {
    @Test(arguments: [0, 1, 15, 16, 17, 63, 64, 65, 128, 1000, 4099])
    func keepsInputOrderAndEveryItem(count: Int) {
        let items = Array(0..<count)
        let mapped = ParallelMap.map(items) { "item-\($0 * 3)" }
        #expect(mapped == items.map { "item-\($0 * 3)" })
    }

    @Test func eachItemIsTransformedExactlyOnce() {
        let calls = Protected(0)
        let mapped = ParallelMap.map(Array(0..<500)) { value -> Int in
            calls.withLock { $0 += 1 }
            return value + 1
        }
        #expect(calls.withLock { $0 } == 500 && mapped == Array(1...500))
    }
}
