import Dispatch
import Foundation

/// A part of the node that runs on threads of its own until it is asked to stop, then finishes
/// what it accepted: an HTTP listener, the any-sync door, the delivery engine and its provider
/// lanes and timers, the SQLite writer, PostgreSQL's `LISTEN` thread. One vocabulary for all of
/// them, in the spirit of swift-service-lifecycle's `Service` (kept on threads: none of these
/// parts is async):
///
/// - `start()` — its threads run. A part starts once.
/// - `stop()` — it takes no new work (a listener stops accepting, a lane stops claiming, the
///   writer refuses new jobs). Returns at once; idempotent.
/// - `drain(timeout:)` — waits until what it accepted is finished (requests answered, answers of
///   tries in flight applied, queued jobs committed), at most `timeout` seconds, then lets its
///   threads go and frees what they held. Stops first when `stop()` was not called; idempotent;
///   true when everything finished in time. On a part never started it returns true at once.
///
/// The order in which a node drains its parts is written once, in `PushNode/NodeServices.swift`.
package protocol LongRunning: AnyObject, Sendable {
    /// What the part is called in logs (`api`, `delivery`, `sqlite-writer`).
    var name: String { get }
    func start() throws
    func stop()
    @discardableResult
    func drain(timeout: Double) -> Bool
}

extension DispatchTime {
    /// `timeout` seconds from now; never for an infinite timeout (a drain that must not give up).
    package static func after(seconds timeout: Double) -> DispatchTime {
        timeout.isFinite ? .now() + max(0, timeout) : .distantFuture
    }
}

/// Opens once and stays open: what a drain waits on, e.g. a part's thread has ended. Any number
/// of callers may wait, before or after it opened.
package final class Latch: @unchecked Sendable {
    private let condition = NSCondition()
    private var isOpen = false // guarded by `condition`

    package init() {}

    package func open() {
        condition.withLock {
            isOpen = true
            condition.broadcast()
        }
    }

    /// True once open; false when `timeout` seconds passed first (an infinite timeout never does).
    package func wait(timeout: Double) -> Bool {
        // Not `wait(until: .distantFuture)`: Foundation on Linux traps converting it to a timespec.
        let deadline = timeout.isFinite ? Date(timeIntervalSinceNow: max(0, timeout)) : nil
        condition.lock()
        defer { condition.unlock() }
        while !isOpen {
            guard let deadline else {
                condition.wait()
                continue
            }
            if !condition.wait(until: deadline) { return isOpen }
        }
        return true
    }
}
