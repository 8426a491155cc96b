import Foundation

/// A value behind a lock, as a reference that closures and threads can share: the project's one
/// lock box (PushClient, the CLI and the node all use it; `Synchronization.Mutex` stays where a
/// class owns a `Sendable` value outright).
///
/// Not built on `Mutex` on purpose: `Mutex.withLock` makes the value and the result `sending`,
/// which C handles (an `OpaquePointer` daemon, a Dispatch timer) held in the state cannot be.
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
