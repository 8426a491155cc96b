#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SIGTERM and SIGINT taken synchronously with `sigwait`, never by a handler.
///
/// Why not a `DispatchSource` signal source: on Linux it reads a `signalfd`, which only sees a
/// signal that every thread blocks. Threads started earlier (libmicrohttpd's pool, the SQLite
/// writer) did not block it, so a SIGTERM could go to one of them and either kill the process with
/// the default action or be dropped as ignored — the node then never shut down. Blocking the two
/// signals first thing in `main`, before any thread exists, makes every later thread inherit the
/// mask; a signal that arrives at any time after that stays pending until `wait` takes it.
public enum TerminationSignals {
    /// Blocks SIGINT and SIGTERM in the calling thread (and so in every thread it starts later) and
    /// ignores SIGPIPE. Call before starting any thread.
    public static func block() {
        var set = signals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Waits for SIGINT or SIGTERM (blocked with `block`) and returns its number.
    @discardableResult
    public static func wait() -> Int32 {
        var set = signals()
        var number: Int32 = 0
        while sigwait(&set, &number) != 0 {}
        return number
    }

    private static func signals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        return set
    }
}
