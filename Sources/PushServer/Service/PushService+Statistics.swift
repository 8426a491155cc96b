import Synchronization

extension PushService {
    /// Cumulative counters for `/metrics`. `deliveriesQueued / notificationsAccepted` is the mean
    /// fan-out; a Prometheus summary of recipients per Notify can be exported as that sum and count.
    public struct Statistics: Sendable, Equatable {
        /// Notify and NotifySilent requests stored (not duplicates).
        public var notificationsAccepted = 0
        /// Requests answered `duplicate: true`.
        public var notificationsDuplicate = 0
        /// Outbox rows written by accepted requests.
        public var deliveriesQueued = 0
        /// Topic signatures answered from the cache / verified.
        public var topicSignatureCacheHits = 0
        public var topicSignatureCacheMisses = 0

        public init() {}
    }

    public func statistics() -> Statistics {
        var copy = counters.withLock { $0 }
        let cache = topicSignatures.counts
        copy.topicSignatureCacheHits = cache.hits
        copy.topicSignatureCacheMisses = cache.misses
        return copy
    }

    func count(_ update: (inout Statistics) -> Void) {
        counters.withLock { update(&$0) }
    }
}
