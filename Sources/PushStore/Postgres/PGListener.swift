import Foundation
import PushSupport

/// A thread with its own connection that `LISTEN`s on one channel and calls `wake` for every
/// notification, so idle delivery workers start when any node queues a row instead of polling.
///
/// A lost connection is reopened (a second later); `wake` is called once after a reconnect, since
/// notifications sent meanwhile are lost. Workers still sweep on a timer for retries that come due
/// and expired leases: a notification is a hint, never the only way a row is found.
final class PGListener: LongRunning {
    let name = "postgres-listener"
    private let conninfo: String
    private let channel: String
    private let wake: @Sendable () -> Void
    private let state = Protected((started: false, stopped: false))
    private let ended = Latch()

    init(conninfo: String, channel: String, wake: @escaping @Sendable () -> Void) {
        self.conninfo = conninfo
        self.channel = channel
        self.wake = wake
    }

    func start() {
        guard state.withLock({ state in
            defer { state.started = true }
            return !state.started && !state.stopped
        }) else { return }
        let thread = Thread { [conninfo, channel, state, ended, wake] in
            Self.run(conninfo: conninfo, channel: channel, stopped: { state.withLock { $0.stopped } }, wake: wake)
            ended.open()
        }
        thread.name = "pushnode.postgres.listener"
        thread.start()
    }

    /// Asks the thread to end; it does within about a second (its wait for a notification).
    func stop() { state.withLock { $0.stopped = true } }

    /// Waits for the thread to end: it holds no work, only its connection.
    @discardableResult
    func drain(timeout: Double) -> Bool {
        stop()
        guard state.withLock({ $0.started }) else { return true }
        return ended.wait(timeout: timeout)
    }

    private static func run(conninfo: String, channel: String, stopped: () -> Bool,
                            wake: @Sendable () -> Void) {
        var reconnecting = false
        while !stopped() {
            guard let connection = try? PGConnection(conninfo: conninfo),
                  (try? connection.execute("LISTEN \(channel)")) != nil else {
                Thread.sleep(forTimeInterval: 1)
                reconnecting = true
                continue
            }
            if reconnecting { wake() }
            reconnecting = true
            while !stopped() {
                guard connection.waitReadable(timeout: 0.5), connection.consumeInput() else { break }
                if !connection.takeNotifications().isEmpty { wake() }
            }
        }
    }
}
