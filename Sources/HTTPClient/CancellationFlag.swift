import Synchronization

/// Set by a cancelled Swift task, read by the event loop: the loop fails the transfer
/// with `.cancelled` before it starts, or removes it from libcurl if it is running.
final class CancellationFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    func cancel() {
        flag.store(true, ordering: .releasing)
    }

    var isCancelled: Bool {
        flag.load(ordering: .acquiring)
    }
}
