import PushSupport

/// The door's devices a provider declared dead (their registration was pruned), by registration
/// id: the next request naming one is answered with its pushkey in `rejected`, so the homeserver
/// deletes the pusher. Kept in memory, bounded (the oldest forgotten first); after a restart the
/// first push to such a device is tried once more and pruned again.
package final class DeadPushkeys: Sendable {
    private struct State {
        var members: Set<String> = []
        var order: [String] = []
        var start = 0
    }

    private let capacity: Int
    private let state = Protected(State())

    package init(capacity: Int = 100_000) {
        precondition(capacity > 0)
        self.capacity = capacity
    }

    package func insert(_ registrationId: String) {
        state.withLock { state in
            guard state.members.insert(registrationId).inserted else { return }
            state.order.append(registrationId)
            if state.members.count > capacity {
                state.members.remove(state.order[state.start])
                state.start += 1
                if state.start > capacity {
                    state.order.removeFirst(state.start)
                    state.start = 0
                }
            }
        }
    }

    package func contains(_ registrationId: String) -> Bool {
        state.withLock { $0.members.contains(registrationId) }
    }
}
