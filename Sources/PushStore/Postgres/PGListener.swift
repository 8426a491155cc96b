import Foundation
import PushSupport

/// A thread with its own connection that `LISTEN`s on one channel and calls `wake` for every
/// notification, so idle delivery workers start when any node queues a row instead of polling.
///
/// A lost connection is reopened (a second later); `wake` is called once after a reconnect, since
/// notifications sent meanwhile are lost. Workers still sweep on a timer for retries that come due
/// and expired leases: a notification is a hint, never the only way a row is found.
final class PGListener: Sendable {
    private let stopped = Protected(false)

    init(conninfo: String, channel: String, wake: @escaping @Sendable () -> Void) {
        let thread = Thread { [stopped] in
            Self.run(conninfo: conninfo, channel: channel, stopped: stopped, wake: wake)
        }
        thread.name = "pushnode.postgres.listener"
        thread.start()
    }

    /// Asks the thread to end (within about a second); does not wait for it.
    func stop() { stopped.withLock { $0 = true } }

    private static func run(conninfo: String, channel: String, stopped: Protected<Bool>,
                            wake: @Sendable () -> Void) {
        var reconnecting = false
        while !stopped.withLock({ $0 }) {
            guard let connection = try? PGConnection(conninfo: conninfo),
                  (try? connection.execute("LISTEN \(channel)")) != nil else {
                Thread.sleep(forTimeInterval: 1)
                reconnecting = true
                continue
            }
            if reconnecting { wake() }
            reconnecting = true
            while !stopped.withLock({ $0 }) {
                guard connection.waitReadable(timeout: 0.5), connection.consumeInput() else { break }
                if !connection.takeNotifications().isEmpty { wake() }
            }
        }
    }
}
