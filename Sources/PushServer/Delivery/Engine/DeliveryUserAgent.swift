import Foundation

/// The `User-Agent` the delivery engine sends to the providers: `pushnode/<version>`, and with a
/// shared PostgreSQL store also ` node/<first 8 hex digits of the node id>`, so that an operator
/// (or the two-node test's mock) can tell which node sent a request. The node id is not a secret
/// (it is written into the outbox claims); only a prefix goes out, and no custom header does.
public enum DeliveryUserAgent {
    public static let nodePrefixLength = 8

    public static func value(version: String, nodeID: String?) -> String {
        guard let nodeID, !nodeID.isEmpty else { return "pushnode/\(version)" }
        return "pushnode/\(version) node/\(nodeID.prefix(nodePrefixLength))"
    }

    /// The configured node's value: the node id only in postgres mode (where several nodes share
    /// the outbox); SQLite nodes never create a node-id file for it.
    public static func value(config: NodeConfig) -> String {
        let nodeID = config.storage.driver == .postgres ? try? NodeIdentity.loadOrCreate(dataDir: config.dataDir) : nil
        return value(version: Node.version, nodeID: nodeID)
    }
}
