import PushSupport

/// Work started and not yet finished, and the callers waiting until none is left:
/// `PushSender.flush()` over its queued and in-flight requests, `PushSubscriber.waitForRevocations()`
/// over its background revokes. A value kept under its owner's lock (`Protected`).
struct PendingWork {
    private(set) var count = 0
    private var waiters: [CheckedContinuation<Void, Never>] = []

    mutating func add(_ units: Int = 1) { count += units }

    /// One unit finished: the waiters to resume, outside the lock, when none is left.
    mutating func finishOne() -> [CheckedContinuation<Void, Never>] {
        count -= 1
        guard count == 0 else { return [] }
        defer { waiters = [] }
        return waiters
    }

    /// True when nothing is pending; otherwise `waiter` is kept for the last `finishOne()`.
    mutating func isIdle(orKeep waiter: CheckedContinuation<Void, Never>) -> Bool {
        if count == 0 { return true }
        waiters.append(waiter)
        return false
    }
}

extension Protected {
    /// Returns once the `PendingWork` at `pending` has nothing left.
    func waitUntilIdle(_ pending: WritableKeyPath<Value, PendingWork>) async {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            if withLock({ $0[keyPath: pending].isIdle(orKeep: c) }) { c.resume() }
        }
    }

    /// Marks one unit of the `PendingWork` at `pending` finished and wakes its waiters when none is left.
    func finishOne(_ pending: WritableKeyPath<Value, PendingWork>) {
        for waiter in withLock({ $0[keyPath: pending].finishOne() }) { waiter.resume() }
    }
}
