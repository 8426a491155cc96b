import PushConfig
import PushEngine
import PushProtocol
import PushStore
import PushSupport

extension DeliveryEngine.Configuration {
    /// `delivery.*` of the node's config: attempts and backoff; `queueCapacity` bounds the
    /// rows one provider holds in flight (clamped to 1000, one HTTP/2 connection's streams ×
    /// the client's connections).
    init(_ delivery: NodeConfig.Delivery) {
        self.init(policy: RetryPolicy(attempts: delivery.attempts, initialBackoff: delivery.initialBackoff,
                                      maxBackoff: delivery.maxBackoff),
                  maxInFlight: min(delivery.queueCapacity, 1000),
                  pollInterval: min(1, max(0.05, delivery.initialBackoff / 4)))
    }
}

extension DeliveryUserAgent {
    /// The configured node's value: the node id only in postgres mode (where several nodes share
    /// the outbox); SQLite nodes never create a node-id file for it.
    static func value(config: NodeConfig) -> String {
        let nodeID = config.storage.driver == .postgres ? try? NodeIdentity.loadOrCreate(dataDir: config.dataDir) : nil
        return value(version: NodeVersion.current, nodeID: nodeID)
    }
}
