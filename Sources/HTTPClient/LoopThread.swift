import Dispatch
import Foundation
import PushSupport

/// The thread an engine's loop runs on (`EventLoop`, `H2Engine`): started once; `waitForExit`
/// waits for the loop to end unless the caller is that thread (a completion calling
/// `shutdown`).
final class LoopThread: Sendable {
    private let exited = DispatchSemaphore(value: 0)
    private let thread = Protected<pthread_t?>(nil)

    func start(name: String, _ loop: @escaping @Sendable () -> Void) {
        let thread = Thread { [self] in
            self.thread.withLock { $0 = pthread_self() }
            loop()
            exited.signal()
        }
        thread.name = name
        thread.start()
    }

    func waitForExit() {
        let onLoop = thread.withLock { id in id.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        if !onLoop { exited.wait() }
    }
}
