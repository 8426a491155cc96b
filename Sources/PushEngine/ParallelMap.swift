import Dispatch
import PushSupport

/// `map` spread over the machine's cores (`DispatchQueue.concurrentPerform`), in order; used
/// to build a claimed batch's requests (Web Push encryption is the engine's costliest step)
/// off the lane's single thread. Small inputs are mapped inline.
///
/// Race-free by construction: each iteration maps its own stride of the input into a local
/// array and hands it over once, under a lock, into its own slot; the slots are interleaved back
/// into input order after every iteration has finished. No storage is shared while mapping.
enum ParallelMap {
    static func map<T: Sendable, R: Sendable>(_ items: [T], minimumParallel: Int = 16,
                                              _ transform: @Sendable (T) -> R) -> [R] {
        guard items.count >= minimumParallel else { return items.map(transform) }
        let chunks = min(items.count, 64)
        let mapped = Protected<[[R]]>(Array(repeating: [], count: chunks))
        DispatchQueue.concurrentPerform(iterations: chunks) { chunk in
            let mine = stride(from: chunk, to: items.count, by: chunks).map { transform(items[$0]) }
            mapped.withLock { $0[chunk] = mine }
        }
        let strides = mapped.withLock { $0 }
        // Item i went to chunk i % chunks, at position i / chunks.
        return items.indices.map { strides[$0 % chunks][$0 / chunks] }
    }
}
