import CMicroHTTPD
import Foundation
import PushSupport

/// `server.requestTimeout`: a request must have arrived whole — head and body — within the timeout
/// of its connection's start, or on a kept-alive connection within `connectionTimeout` +
/// `requestTimeout` of the previous answer. libmicrohttpd's own timeout restarts on every byte, so
/// a client trickling one byte at a time would otherwise hold its connection (and a worker's
/// buffer) for ever.
///
/// The libmicrohttpd callbacks keep one entry per connection; a reaper thread shuts down the socket
/// of every connection past its deadline, and libmicrohttpd then closes it as if the client had.
/// The entry leaves the table in the close notification, which libmicrohttpd makes before closing
/// the socket, and the reaper shuts sockets down under the same lock, so it never touches a socket
/// number that was reused by a later connection.
final class RequestDeadlines: @unchecked Sendable {
    private struct Entry {
        var fd: Int32
        /// nil while the answer is being sent (libmicrohttpd's timeout covers a slow reader).
        var deadline: Double?
    }

    private let requestTimeout: Double
    private let keepAliveTimeout: Double
    private let now: @Sendable () -> Double
    private let entries = Protected<(table: [UnsafeMutableRawPointer: Entry], running: Bool, stopped: Bool, closed: Int)>(
        ([:], false, false, 0))
    private let wake = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)

    init(requestTimeout: Double, keepAliveTimeout: Double, now: @escaping @Sendable () -> Double = Clocks.monotonicSeconds) {
        self.requestTimeout = requestTimeout
        self.keepAliveTimeout = keepAliveTimeout
        self.now = now
    }

    /// Connections shut down for missing their deadline so far.
    var timedOut: Int { entries.withLock { $0.closed } }

    func connectionStarted(_ connection: OpaquePointer, fd: Int32) {
        let deadline = now() + requestTimeout
        entries.withLock { $0.table[UnsafeMutableRawPointer(connection)] = Entry(fd: fd, deadline: deadline) }
    }

    /// The request is whole and its answer queued.
    func answerQueued(_ connection: OpaquePointer) {
        entries.withLock { $0.table[UnsafeMutableRawPointer(connection)]?.deadline = nil }
    }

    /// The answer went out; the next request on this connection starts its clock.
    func requestCompleted(_ connection: OpaquePointer) {
        let deadline = now() + keepAliveTimeout + requestTimeout
        entries.withLock { $0.table[UnsafeMutableRawPointer(connection)]?.deadline = deadline }
    }

    func connectionClosed(_ connection: OpaquePointer) {
        entries.withLock { _ = $0.table.removeValue(forKey: UnsafeMutableRawPointer(connection)) }
    }

    /// Shuts down every connection past its deadline; returns how many.
    @discardableResult
    func reap() -> Int {
        let at = now()
        return entries.withLock { state in
            var count = 0
            for (key, entry) in state.table {
                guard let deadline = entry.deadline, deadline <= at else { continue }
                _ = Glibc.shutdown(entry.fd, Int32(SHUT_RDWR))
                state.table[key]?.deadline = nil
                count += 1
            }
            state.closed += count
            return count
        }
    }

    /// Starts the reaper thread: a pass every quarter of the timeout (at most a second apart).
    func start() {
        guard entries.withLock({ state -> Bool in
            defer { state.running = true }
            return !state.running && !state.stopped
        }) else { return }
        let interval = min(1, max(0.05, requestTimeout / 4))
        let thread = Thread { [self] in
            while !entries.withLock({ $0.stopped }) {
                _ = wake.wait(timeout: .now() + interval)
                reap()
            }
            finished.signal()
        }
        thread.stackSize = 128 * 1024
        thread.start()
    }

    /// Stops the reaper thread and waits for it.
    func stop() {
        let wasRunning = entries.withLock { state -> Bool in
            defer { state.stopped = true }
            return state.running && !state.stopped
        }
        guard wasRunning else { return }
        wake.signal()
        finished.wait()
    }
}
