import PushProtocol

/// The node's configuration: every key of PROTOCOL §7 with its default, plus the `rateLimits`
/// and `server` sections (not in §7). Durations are seconds. Load it with `ConfigLoader`.
public struct NodeConfig: Sendable, Equatable {
    /// `listen`: the API listener.
    public var listen = ListenAddress(host: "127.0.0.1", port: 8765)
    /// `adminListen`: when set, `/metrics` is served there (and only there).
    public var adminListen: ListenAddress?
    /// `dataDir`: the SQLite file and generated keys live here.
    public var dataDir = "./pushnode-data"
    public var storage = Storage()
    public var auth = Auth()
    /// `limits.*`
    public var limits = Limits.default
    public var spaces = Spaces()
    public var delivery = Delivery()
    public var notifications = Notifications()
    public var fcm = FCM()
    public var apns = APNs()
    public var webpush = WebPush()
    public var tls = TLS()
    public var anysync = AnySync()
    /// `rateLimits.*` (an extension of PROTOCOL §7).
    public var rateLimits = RateLimitPolicy.default
    /// `server.*` (an extension of PROTOCOL §7): HTTP server tuning.
    public var server = Server()

    public init() {}

    public enum StorageDriver: String, Sendable, Equatable, CaseIterable {
        case sqlite, postgres
    }

    /// `storage: {driver: sqlite}` or `{driver: postgres, url: "postgres://…", poolSize: 8}`.
    public struct Storage: Sendable, Equatable {
        public var driver = StorageDriver.sqlite
        /// `storage.url` — may hold a password: never log it.
        public var url = ""
        public var poolSize = 8
        /// `storage.claimLease`, seconds: how long a node's claim on a delivery lasts unless renewed
        /// (PostgreSQL; a dead node's deliveries are resumed by another node after it).
        public var claimLease: Double = 30
    }

    public struct Auth: Sendable, Equatable {
        /// `auth.clockSkew`, seconds (default 300).
        public var clockSkew: Double = 300
    }

    public struct Spaces: Sendable, Equatable {
        public var requireRegistration = false
    }

    public struct Delivery: Sendable, Equatable {
        public var attempts = 6
        /// `delivery.initialBackoff`, seconds.
        public var initialBackoff: Double = 10
        /// `delivery.maxBackoff`, seconds.
        public var maxBackoff: Double = 600
        public var queueCapacity = 100_000
    }

    public struct Notifications: Sendable, Equatable {
        public struct Alert: Sendable, Equatable {
            public var title = "New message"
            public var body = ""
        }
        public var defaultAlert = Alert()
    }

    public struct FCM: Sendable, Equatable {
        /// Google service-account JSON; empty = FCM platforms off.
        public var credentialsPath = ""
        public var baseURL = "https://fcm.googleapis.com"
        public var isConfigured: Bool { !credentialsPath.isEmpty }
    }

    public struct APNs: Sendable, Equatable {
        public var keyPath = ""
        public var keyId = ""
        public var teamId = ""
        public var topic = ""
        public var useSandbox = false
        public var host = ""
        /// All four credentials are set.
        public var isConfigured: Bool { missingKeys.isEmpty }
        /// The credential keys that are unset, e.g. `["apns.teamId"]`.
        public var missingKeys: [String] {
            [("apns.keyPath", keyPath), ("apns.keyId", keyId), ("apns.teamId", teamId), ("apns.topic", topic)]
                .filter { $0.1.isEmpty }.map(\.0)
        }
    }

    public struct WebPush: Sendable, Equatable {
        /// Empty = a key generated once into `dataDir`.
        public var vapidKeyPath = ""
        public var subject = "mailto:admin@example.org"
        public var allowPrivateEndpoints = false
    }

    public struct TLS: Sendable, Equatable {
        /// An extra CA for outbound HTTPS.
        public var caFile = ""
    }

    public struct AnySync: Sendable, Equatable {
        /// nil = the any-sync door is closed.
        public var listen: ListenAddress?
        public var peerKeyPath = ""
        public var protocolVersions: ClosedRange<Int> = 5...14
    }

    public struct Server: Sendable, Equatable {
        /// `server.threads`: libmicrohttpd worker threads.
        public var threads = 8
        /// `server.connectionTimeout`, seconds: an idle connection is closed after this.
        public var connectionTimeout: Double = 30
        /// `server.shutdownTimeout`, seconds: how long shutdown waits for in-flight requests.
        public var shutdownTimeout: Double = 10
        /// `server.maxConnections`: concurrent connections per listener.
        public var maxConnections = 4096
    }
}

extension NodeConfig {
    /// The platforms whose provider has credentials (PROTOCOL §7): FCM → android, ios; all four
    /// APNs keys → apns, apns_voip; Web Push always (a VAPID key is generated when none is set).
    public var enabledPlatforms: Set<Platform> {
        var platforms: Set<Platform> = [.webpush]
        if fcm.isConfigured { platforms.formUnion(Provider.fcm.platforms) }
        if apns.isConfigured { platforms.formUnion(Provider.apns.platforms) }
        return platforms
    }

    /// One line per provider left off for lack of credentials, to log once at start.
    public var unconfiguredProviderWarnings: [String] {
        var lines: [String] = []
        if !fcm.isConfigured {
            lines.append("provider=fcm state=disabled reason=\"fcm.credentialsPath unset\" platforms=android,ios")
        }
        if !apns.isConfigured {
            lines.append("provider=apns state=disabled reason=\"\(apns.missingKeys.joined(separator: ",")) unset\" platforms=apns,apns_voip")
        }
        return lines
    }
}
