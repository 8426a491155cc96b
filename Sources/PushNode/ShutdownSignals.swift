#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import PushSupport

/// SIGINT/SIGTERM (stop) and SIGHUP (reload) taken synchronously with `sigwait`, set up *before*
/// any thread exists: a signal that arrives while the node is starting (or right after it logged
/// `ready`) is never lost, never ignored and never kills the process. A second stop signal during
/// shutdown exits at once.
///
/// SIGHUP never stops the node: logrotate and `systemctl reload` send it, and its default action
/// would kill the process. It is taken by the same thread, runs the reload work set with
/// `onReload` (reopening `log.file` after logrotate moved it) and is logged as `event=sighup` —
/// after the reopen, so the line is the new file's first.
///
/// Why not `DispatchSource` signal sources: on Linux they read a `signalfd`, which only sees a
/// signal that the receiving thread blocks. The threads the node starts (libmicrohttpd's pool, the
/// SQLite writer, the delivery engine) did not block it, and replacing the disposition with
/// `SIG_IGN` races libdispatch's own handler: a SIGTERM right after `ready` either killed the node
/// (-15) or was dropped (the node never stopped). Blocking the signals in the main thread first
/// makes every later thread inherit the mask; a signal stays pending until `sigwait` takes it.
package final class ShutdownSignals: Sendable {
    private let reloadWork = Protected<(@Sendable () throws -> Void)?>(nil)

    /// Blocks SIGINT, SIGTERM and SIGHUP in the calling thread (and every thread it starts
    /// afterwards) and ignores SIGPIPE. Create it first thing in `main`, before any thread is started.
    package init() {
        var set = Self.signals()
        pthread_sigmask(SIG_BLOCK, &set, nil)
        signal(SIGPIPE, SIG_IGN)
    }

    /// Blocks until the first SIGINT/SIGTERM (SIGHUPs meanwhile are handled and waiting goes on);
    /// afterwards a thread keeps taking signals: SIGHUP is still handled, a second stop logs and
    /// exits(1).
    package func wait(log: LogSink) {
        takeStop(log: log)
        let forced = Thread { [self] in
            takeStop(log: log)
            log(.warn, "shutdown", ["stage": "forced"])
            exit(1)
        }
        forced.start()
    }

    /// Returns at the next SIGINT or SIGTERM, handling every SIGHUP before it.
    /// What SIGHUP does besides logging (replaces what was set before).
    package func onReload(_ work: @escaping @Sendable () throws -> Void) {
        reloadWork.withLock { $0 = work }
    }

    private func takeStop(log: LogSink) {
        var set = Self.signals()
        while true {
            var number: Int32 = 0
            guard sigwait(&set, &number) == 0 else { continue }
            guard number == SIGHUP else { return }
            reload(log: log)
        }
    }

    /// SIGHUP: the reload work, then one line; a failure is logged and the node goes on.
    private func reload(log: LogSink) {
        do {
            try reloadWork.withLock { $0 }?()
            log(.info, "sighup")
        } catch {
            log(.error, "sighup", ["error": "\(error)"])
        }
    }

    private static func signals() -> sigset_t {
        var set = sigset_t()
        sigemptyset(&set)
        sigaddset(&set, SIGINT)
        sigaddset(&set, SIGTERM)
        sigaddset(&set, SIGHUP)
        return set
    }
}
