#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One lazily made `Value` per OS thread, released when the thread exits.
///
/// Used to keep reusable OpenSSL contexts (key generation, key import, ciphers) per
/// thread: they are not safe to share, and making them per call costs more than the
/// work they do. Callers must not keep the value across a suspension point.
final class ThreadLocal<Value: AnyObject>: Sendable {
    private let key: pthread_key_t
    private let make: @Sendable () throws -> Value

    init(_ make: @escaping @Sendable () throws -> Value) {
        var key = pthread_key_t()
        let rc = pthread_key_create(&key, releaseThreadLocalValue)
        precondition(rc == 0, "pthread_key_create failed")
        self.key = key
        self.make = make
    }

    /// This thread's value, made on first use.
    var value: Value {
        get throws {
            if let stored = pthread_getspecific(key) {
                return Unmanaged<Value>.fromOpaque(stored).takeUnretainedValue()
            }
            let fresh = try make()
            pthread_setspecific(key, Unmanaged.passRetained(fresh).toOpaque())
            return fresh
        }
    }
}

/// The pthread key destructor: drops the reference `ThreadLocal` took for the thread.
private func releaseThreadLocalValue(_ pointer: UnsafeMutableRawPointer?) {
    guard let pointer else { return }
    Unmanaged<AnyObject>.fromOpaque(pointer).release()
}
