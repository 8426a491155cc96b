import PushProtocol

/// The `GET /v1/capabilities` answer (PROTOCOL §3), fixed at start.
public struct Capabilities: Sendable, Equatable {
    public var version: String
    public var platforms: Set<Platform>
    /// base64url of the uncompressed P-256 VAPID public key ("" until the key is loaded).
    public var vapidPublicKey: String
    public var limits: Limits
    public var anysyncEnabled: Bool
    /// The any-sync peer id, when the door is open.
    public var anysyncPeerID: String?

    public init(version: String, platforms: Set<Platform>, vapidPublicKey: String, limits: Limits,
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
    public var json: [UInt8] {
        JSON.encode(Body(
            version: version,
            platforms: Platform.allCases.filter { platforms.contains($0) }.map(\.rawValue),
            vapidPublicKey: vapidPublicKey,
            limits: .init(maxPayloadBytes: limits.maxPayloadBytes, maxTopicsPerRequest: limits.maxTopicsPerRequest,
                          maxSubscriptions: limits.maxSubscriptions),
            anysync: .init(enabled: anysyncEnabled, peerId: anysyncEnabled ? anysyncPeerID : nil)))
    }
}
