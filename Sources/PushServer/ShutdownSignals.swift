import Dispatch
import Foundation

/// SIGINT/SIGTERM turned into a wait, installed *before* the node starts: a signal that
/// arrives while the node is starting (or right after it logged `ready`) is never lost nor
/// ignored. A second signal during shutdown exits at once.
public final class ShutdownSignals: @unchecked Sendable {  // sources are only touched on init/wait
    private let received = DispatchSemaphore(value: 0)
    private var sources: [DispatchSourceSignal] = []

    public init() {
        signal(SIGPIPE, SIG_IGN)
        for number in [SIGINT, SIGTERM] {
            // Ignore the default action only once the dispatch source is watching the signal.
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            let received = self.received
            source.setEventHandler { received.signal() }
            source.resume()
            signal(number, SIG_IGN)
            sources.append(source)
        }
    }

    /// Blocks until the first signal; later ones log and exit(1).
    public func wait(log: LogSink) {
        received.wait()
        for source in sources {
            source.setEventHandler {
                log("event=shutdown stage=forced")
                exit(1)
            }
        }
    }

    deinit { sources.forEach { $0.cancel() } }
}
