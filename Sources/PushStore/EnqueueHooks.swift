import PushSupport

/// The handlers registered with `PushStore.onEnqueue`, called after a commit that queued deliveries.
/// Handlers must return quickly (signal a condition, resume a waiter); they run on the committing
/// thread or the store's listener thread.
final class EnqueueHooks: Sendable {
    private let handlers = Protected<[@Sendable () -> Void]>([])

    func add(_ handler: @escaping @Sendable () -> Void) {
        handlers.withLock { $0.append(handler) }
    }

    func fire() {
        let current = handlers.withLock { $0 }
        for handler in current { handler() }
    }
}
