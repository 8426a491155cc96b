import Dispatch
import Foundation
import PushSupport

/// Work run every `interval` seconds on a queue of its own (the engine's outbox purge and its
/// delivery summary line). A `LongRunning` part: `stop()` cancels the timer; `drain(timeout:)`
/// also waits for a run in progress, so a purge never outlives the store it purges.
final class PeriodicTask: LongRunning {
    let name: String
    private let interval: TimeInterval
    private let work: @Sendable () -> Void
    private let queue: DispatchQueue
    private let timer = Protected<(source: (any DispatchSourceTimer)?, stopped: Bool)>((nil, false))

    init(name: String, every interval: TimeInterval, _ work: @escaping @Sendable () -> Void) {
        self.name = name
        self.interval = interval
        self.work = work
        queue = DispatchQueue(label: "pushnode.\(name)", qos: .utility)
    }

    func start() {
        timer.withLock { state in
            guard state.source == nil, !state.stopped else { return }
            let source = DispatchSource.makeTimerSource(queue: queue)
            source.schedule(deadline: .now() + interval, repeating: interval)
            source.setEventHandler(handler: work)
            source.resume()
            state.source = source
        }
    }

    func stop() {
        timer.withLock { state in
            state.source?.cancel()
            state.source = nil
            state.stopped = true
        }
    }

    /// True once a run in progress (if any) has returned.
    @discardableResult
    func drain(timeout: Double) -> Bool {
        stop()
        let idle = DispatchSemaphore(value: 0)
        queue.async { idle.signal() }
        return idle.wait(timeout: .after(seconds: timeout)) == .success
    }
}
