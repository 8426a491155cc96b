import Foundation

/// A value behind a lock, as a reference that closures and threads can share: the project's one
/// lock box (PushClient, the CLI, the HTTP client and the node all use it).
///
/// Built on `NSLock` (a `pthread_mutex_t` on Linux), not on `Synchronization.Mutex`, for two reasons:
/// - ThreadSanitizer cannot see `Mutex` on Linux. Only its uncontended fast path (one
///   compare-exchange inlined into our code) is instrumented; a contended lock is taken by the
///   spin loop and `FUTEX_LOCK_PI` in the uninstrumented `libswiftSynchronization.so`, and the
///   matching unlock is `FUTEX_UNLOCK_PI`. TSan then sees no happens-before edge between two
///   critical sections and reports a race that is not one. TSan intercepts `pthread_mutex_*`.
/// - `Mutex.withLock` makes the value and the result `sending`, which C handles (an `OpaquePointer`
///   daemon, a Dispatch timer) held in the state cannot be.
///
/// Hold the lock only for the closure; never block or await inside it.
package final class Protected<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) { self.value = value }

    /// Runs `body` with exclusive access to the value.
    package func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
