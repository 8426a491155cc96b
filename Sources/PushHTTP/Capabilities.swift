import PushProtocol
import PushSupport

/// The `GET /v1/capabilities` answer (PROTOCOL §3), fixed at start.
package struct Capabilities: Sendable, Equatable {
    package var version: String
    package var platforms: Set<Platform>
    /// base64url of the uncompressed P-256 VAPID public key ("" until the key is loaded).
    package var vapidPublicKey: String
    package var limits: Limits
    package var anysyncEnabled: Bool
    /// The any-sync peer id, when the door is open.
    package var anysyncPeerID: String?

    package init(version: String, platforms: Set<Platform>, vapidPublicKey: String, limits: Limits,
                anysyncEnabled: Bool = false, anysyncPeerID: String? = nil) {
        self.version = version
        self.platforms = platforms
        self.vapidPublicKey = vapidPublicKey
        self.limits = limits
        self.anysyncEnabled = anysyncEnabled
        self.anysyncPeerID = anysyncPeerID
    }

    private struct Body: Encodable {
        struct LimitsBody: Encodable {
            let maxPayloadBytes: Int
            let maxTopicsPerRequest: Int
            let maxSubscriptions: Int
        }
        struct AnySync: Encodable {
            let enabled: Bool
            let peerId: String?
        }
        let version: String
        let platforms: [String]
        let vapidPublicKey: String
        let limits: LimitsBody
        let anysync: AnySync
    }

    /// The JSON body; platforms in `Platform.allCases` order.
    package var json: [UInt8] {
        JSON.body(Body(
            version: version,
            platforms: Platform.allCases.filter { platforms.contains($0) }.map(\.rawValue),
            vapidPublicKey: vapidPublicKey,
            limits: .init(maxPayloadBytes: limits.maxPayloadBytes, maxTopicsPerRequest: limits.maxTopicsPerRequest,
                          maxSubscriptions: limits.maxSubscriptions),
            anysync: .init(enabled: anysyncEnabled, peerId: anysyncEnabled ? anysyncPeerID : nil)))
    }
}
