import Foundation

/// A value guarded by a lock, for state shared between a caller's thread and a worker task.
///
/// Callers hold the lock only for the duration of the closure; never await inside it.
final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    init(_ value: Value) { self.value = value }

    func withLock<R>(_ body: (inout Value) throws -> R) rethrows -> R {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }

    var current: Value { withLock { $0 } }
}
