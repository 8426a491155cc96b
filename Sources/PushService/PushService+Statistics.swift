extension PushService {
    /// Cumulative counters for `/metrics`. `deliveriesQueued / notificationsAccepted` is the mean
    /// fan-out; a Prometheus summary of recipients per Notify can be exported as that sum and count.
    package struct Statistics: Sendable, Equatable {
        /// Notify and NotifySilent requests stored (not duplicates).
        package var notificationsAccepted = 0
        /// Requests answered `duplicate: true`.
        package var notificationsDuplicate = 0
        /// Outbox rows written by accepted requests.
        package var deliveriesQueued = 0
        /// Earlier deliveries withdrawn by a replacing Notify (`replaces`, kind `clear`).
        package var deliveriesSuperseded = 0
        /// Topic signatures answered from the cache / verified.
        package var topicSignatureCacheHits = 0
        package var topicSignatureCacheMisses = 0
    }

    package func statistics() -> Statistics {
        var copy = counters.withLock { $0 }
        let cache = topicSignatures.counts
        copy.topicSignatureCacheHits = cache.hits
        copy.topicSignatureCacheMisses = cache.misses
        return copy
    }

    package func count(_ update: (inout Statistics) -> Void) {
        counters.withLock { update(&$0) }
    }
}
