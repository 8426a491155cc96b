import Dispatch

/// `map` spread over the machine's cores (`DispatchQueue.concurrentPerform`), in order; used
/// to build a claimed batch's requests (Web Push encryption is the engine's costliest step)
/// off the lane's single thread. Small inputs are mapped inline.
enum ParallelMap {
    static func map<T: Sendable, R: Sendable>(_ items: [T], minimumParallel: Int = 16,
                                              _ transform: @Sendable (T) -> R) -> [R] {
        guard items.count >= minimumParallel else { return items.map(transform) }
        let results = Slots<R>(count: items.count)
        let chunks = min(items.count, 64)
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            var index = chunk
            while index < items.count {
                results.set(index, transform(items[index]))
                index += chunks
            }
        }
        return results.values()
    }

    /// Write-once slots, each written by exactly one iteration; read after all have finished.
    private final class Slots<R>: @unchecked Sendable {
        private var storage: [R?]
        init(count: Int) { storage = Array(repeating: nil, count: count) }
        func set(_ index: Int, _ value: R) { storage.withUnsafeMutableBufferPointer { $0[index] = value } }
        func values() -> [R] { storage.map { $0! } }
    }
}
