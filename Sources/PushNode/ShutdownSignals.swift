#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PushSupport

/// SIGINT/SIGTERM taken synchronously with `sigwait`, set up *before* any thread exists: a signal
/// that arrives while the node is starting (or right after it logged `ready`) is never lost, never
/// ignored and never kills the process. A second signal during shutdown exits at once.
///
/// Why not `DispatchSource` signal sources: on Linux they read a `signalfd`, which only sees a
/// signal that the receiving thread blocks. The threads the node starts (libmicrohttpd's pool, the
/// SQLite writer, the delivery engine) did not block it, and replacing the disposition with
/// `SIG_IGN` races libdispatch's own handler: a SIGTERM right after `ready` either killed the node
/// (-15) or was dropped (the node never stopped). Blocking the two signals in the main thread
/// first makes every later thread inherit the mask; the signal stays pending until `wait` takes it.
package final class ShutdownSignals: Sendable {
    /// Blocks SIGINT and SIGTERM in the calling thread (and every thread it starts afterwards) and
    /// ignores SIGPIPE. Create it first thing in `main`, before any thread is started.
    package init() {
        var set = Self.signals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Blocks until the first signal; a later one logs and exits(1).
    package func wait(log: LogSink) {
        Self.take()
        let forced = Thread {
            Self.take()
            log("event=shutdown stage=forced")
            exit(1)
        }
        forced.start()
    }

    private static func take() {
        var set = signals()
        var number: Int32 = 0
        while sigwait(&set, &number) != 0 {}
    }

    private static func signals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}
