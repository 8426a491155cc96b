import PushSupport

/// The handlers registered with `OutboxStore.onEnqueue`, called after a commit that queued deliveries.
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

    /// What an enqueue does after its commit: fires the handlers when `result` queued deliveries
    /// (unless a listener fires them, `unlessListening`: PostgreSQL's `NOTIFY`), and hands it on.
    func announce(_ result: EnqueueResult, unlessListening listening: Bool = false) -> EnqueueResult {
        if result.queued > 0, !listening { fire() }
        return result
    }

    /// Drops every handler: what a store's `close` does, so that it lets go of what they hold (the
    /// delivery engine's wakeup holds the engine, which holds the store: a cycle until then).
    func removeAll() {
        let dropped = handlers.withLock { handlers in
            defer { handlers = [] }
            return handlers
        }
        _ = dropped  // released here, outside the lock
    }
}
