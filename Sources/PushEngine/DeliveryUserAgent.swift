import Foundation
import PushStore

/// The `User-Agent` the delivery engine sends to the providers: `pushnode/<version>`, and with a
/// shared PostgreSQL store also ` node/<first 8 hex digits of the node id>`, so that an operator
/// (or the two-node test's mock) can tell which node sent a request. The node id is not a secret
/// (it is written into the outbox claims); only a prefix goes out, and no custom header does.
package enum DeliveryUserAgent {
    package static let nodePrefixLength = 8

    package static func value(version: String, nodeID: String?) -> String {
        guard let nodeID, !nodeID.isEmpty else { return "pushnode/\(version)" }
        return "pushnode/\(version) node/\(nodeID.prefix(nodePrefixLength))"
    }
}
