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
    /// Every app the node delivers for, `default` first (PROTOCOL §10); the top-level fields
    /// describe `default`.
    package var apps: [App]

    /// One app of `apps`.
    package struct App: Sendable, Equatable {
        package var id: String
        package var platforms: Set<Platform>
        /// Its own VAPID public key (base64url); nil when it has no Web Push.
        package var vapidPublicKey: String?

        package init(id: String, platforms: Set<Platform>, vapidPublicKey: String?) {
            self.id = id
            self.platforms = platforms
            self.vapidPublicKey = vapidPublicKey
        }
    }

    package init(version: String, platforms: Set<Platform>, vapidPublicKey: String, limits: Limits,
                anysyncEnabled: Bool = false, anysyncPeerID: String? = nil, apps: [App]? = nil) {
        self.version = version
        self.platforms = platforms
        self.vapidPublicKey = vapidPublicKey
        self.limits = limits
        self.anysyncEnabled = anysyncEnabled
        self.anysyncPeerID = anysyncPeerID
        self.apps = apps ?? [App(id: "default", platforms: platforms, vapidPublicKey: vapidPublicKey)]
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
        struct AppBody: Encodable {
            let id: String
            let platforms: [String]
            let vapidPublicKey: String?
        }
        let version: String
        let platforms: [String]
        let vapidPublicKey: String
        let limits: LimitsBody
        let anysync: AnySync
        let apps: [AppBody]
    }

    /// The JSON body; platforms in `Platform.allCases` order.
    package var json: [UInt8] {
        JSON.body(Body(
            version: version,
            platforms: Self.names(platforms),
            vapidPublicKey: vapidPublicKey,
            limits: .init(maxPayloadBytes: limits.maxPayloadBytes, maxTopicsPerRequest: limits.maxTopicsPerRequest,
                          maxSubscriptions: limits.maxSubscriptions),
            anysync: .init(enabled: anysyncEnabled, peerId: anysyncEnabled ? anysyncPeerID : nil),
            apps: apps.map { Body.AppBody(id: $0.id, platforms: Self.names($0.platforms), vapidPublicKey: $0.vapidPublicKey) }))
    }

    private static func names(_ platforms: Set<Platform>) -> [String] {
        Platform.allCases.filter { platforms.contains($0) }.map(\.rawValue)
    }
}
