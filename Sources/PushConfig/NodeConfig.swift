import PushMatrix
import PushNet
import PushProtocol
import PushService
import PushSupport

/// The node's configuration: every key of PROTOCOL §7 with its default, plus the `rateLimits`
/// and `server` sections (not in §7). Durations are seconds. Load it with `ConfigLoader`.
package struct NodeConfig: Sendable, Equatable {
    /// `listen`: the API listener.
    package var listen = ListenAddress(host: "127.0.0.1", port: 8765)
    /// `adminListen`: when set, `/metrics` is served there (and only there). On loopback by
    /// default, so a new node's `/status`, `/metrics` and `pushnode status` work and stay off any
    /// public address; `""` turns it off. A listener that cannot bind stops the start, default or not:
    /// a node running without it would leave `pushnode status` and a scraper asking whatever else
    /// holds the port.
    package var adminListen: ListenAddress? = NodeConfig.defaultAdminListen
    package static let defaultAdminListen = ListenAddress(host: "127.0.0.1", port: 9765)
    /// `dataDir`: the SQLite file and generated keys live here.
    package var dataDir = "./pushnode-data"
    package var storage = Storage()
    package var auth = Auth()
    /// `limits.*`
    package var limits = Limits.default
    package var spaces = Spaces()
    package var delivery = Delivery()
    package var notifications = Notifications()
    package var fcm = FCM()
    package var apns = APNs()
    package var webpush = WebPush()
    package var huawei = Huawei()
    package var harmony = Harmony()
    /// `apps`: the apps beside `default` (whose credentials are the top-level provider
    /// sections), each with its own provider sections (`NodeConfig+Apps.swift`).
    package var apps: [App] = []
    package var tls = TLS()
    package var anysync = AnySync()
    /// `matrix`: the Matrix Push Gateway door (PROTOCOL §10), off by default.
    package var matrix = MatrixDoorConfiguration()
    /// `rateLimits.*` (an extension of PROTOCOL §7).
    package var rateLimits = RateLimitPolicy.default
    /// `server.*` (an extension of PROTOCOL §7): HTTP server tuning.
    package var server = Server()
    /// `log.*`: level, line format, file.
    package var log = Log()

    package init() {}

    package enum StorageDriver: String, Sendable, Equatable, CaseIterable {
        case sqlite, postgres
    }

    /// `storage: {driver: sqlite}` or `{driver: postgres, url: "postgres://…", poolSize: 8}`.
    package struct Storage: Sendable, Equatable {
        package var driver = StorageDriver.sqlite
        /// `storage.url` — may hold a password: never log it.
        package var url = ""
        package var poolSize = 8
        /// `storage.claimLease`, seconds: how long a node's claim on a delivery lasts unless renewed
        /// (PostgreSQL; a dead node's deliveries are resumed by another node after it).
        package var claimLease: Double = 30
        /// `storage.outcomeRetention`, seconds: how long `GET /v1/notifications/{id}` answers for a
        /// notification (default 24 h).
        package var outcomeRetention: Double = 86_400
    }

    package struct Auth: Sendable, Equatable {
        /// `auth.clockSkew`, seconds (default 300).
        package var clockSkew: Double = 300
    }

    package struct Spaces: Sendable, Equatable {
        package var requireRegistration = false
    }

    package struct Delivery: Sendable, Equatable {
        package var attempts = 6
        /// `delivery.initialBackoff`, seconds.
        package var initialBackoff: Double = 10
        /// `delivery.maxBackoff`, seconds.
        package var maxBackoff: Double = 600
        package var queueCapacity = 100_000
        /// `delivery.httpEngine`: what carries HTTPS to the providers.
        package var httpEngine = HTTPEngine.nghttp2
    }

    /// `nghttp2`: the node's HTTP/2 engine (nghttp2 + OpenSSL); `libcurl`: libcurl's multi
    /// interface for everything, a fallback should a provider and the engine disagree.
    package enum HTTPEngine: String, Sendable, Equatable, CaseIterable {
        case nghttp2
        case libcurl
    }

    package struct Notifications: Sendable, Equatable {
        package struct Alert: Sendable, Equatable {
            package var title = "New message"
            package var body = ""
        }
        package var defaultAlert = Alert()
    }

    package struct FCM: Sendable, Equatable {
        /// Google service-account JSON; empty = FCM platforms off.
        package var credentialsPath = ""
        package var baseURL = "https://fcm.googleapis.com"
        package var isConfigured: Bool { !credentialsPath.isEmpty }
    }

    package struct APNs: Sendable, Equatable {
        package var keyPath = ""
        package var keyId = ""
        package var teamId = ""
        package var topic = ""
        package var useSandbox = false
        package var host = ""
        /// `apns.developmentHost`: where registrations with `environment: development` go when
        /// set (beside `host` for production), e.g. a second mock; empty = as `host` decides.
        package var developmentHost = ""
        /// `apns.tokenRenewal`, seconds: a provider token this old is renewed (APNs refuses one
        /// older than an hour).
        package var tokenRenewal: Double = 50 * 60
        /// `apns.tokenMinInterval`, seconds: a key's token is never renewed again within this,
        /// except once after APNs refused it (Apple: 20 minutes, else `TooManyProviderTokenUpdates`).
        package var tokenMinInterval: Double = 20 * 60
        /// All four credentials are set.
        package var isConfigured: Bool { missingKeys.isEmpty }
        /// The credential keys that are unset, e.g. `["apns.teamId"]`.
        package var missingKeys: [String] {
            [("apns.keyPath", keyPath), ("apns.keyId", keyId), ("apns.teamId", teamId), ("apns.topic", topic)]
                .filter { $0.1.isEmpty }.map(\.0)
        }
    }

    /// HMS Core Push Kit v1 (`huawei`): the app's OAuth client credentials from AppGallery Connect.
    package struct Huawei: Sendable, Equatable {
        /// The app's id (the OAuth client id); empty = `huawei` off.
        package var appId = ""
        /// The app's secret (the OAuth client secret) — a secret: never log it. Empty = off.
        package var clientSecret = ""
        package var baseURL = "https://push-api.cloud.huawei.com"
        package var tokenURL = "https://oauth-login.cloud.huawei.com/oauth2/v3/token"
        package var isConfigured: Bool { missingKeys.isEmpty }
        /// The credential keys that are unset.
        package var missingKeys: [String] {
            [("huawei.appId", appId), ("huawei.clientSecret", clientSecret)].filter { $0.1.isEmpty }.map(\.0)
        }
    }

    /// HarmonyOS NEXT Push Kit v3 (`harmony`): the project and its service-account key file.
    package struct Harmony: Sendable, Equatable {
        /// The AppGallery Connect project id; empty = `harmony` off.
        package var projectId = ""
        /// The service-account JSON (`key_id`, `sub_account`, `private_key`); empty = off.
        package var serviceAccountPath = ""
        package var baseURL = "https://push-api.cloud.huawei.com"
        package var isConfigured: Bool { missingKeys.isEmpty }
        /// The credential keys that are unset.
        package var missingKeys: [String] {
            [("harmony.projectId", projectId), ("harmony.serviceAccountPath", serviceAccountPath)]
                .filter { $0.1.isEmpty }.map(\.0)
        }
    }

    package struct WebPush: Sendable, Equatable {
        /// Empty = a key generated once into `dataDir`.
        package var vapidKeyPath = ""
        package var subject = "mailto:admin@example.org"
        package var allowPrivateEndpoints = false
    }

    package struct TLS: Sendable, Equatable {
        /// An extra CA for outbound HTTPS.
        package var caFile = ""
    }

    package struct AnySync: Sendable, Equatable {
        /// nil = the any-sync door is closed.
        package var listen: ListenAddress?
        package var peerKeyPath = ""
        package var protocolVersions: ClosedRange<Int> = 5...14
        /// `anysync.handshakeTimeout` … `anysync.maxFrameBytes`: the door's bounds.
        package var limits = AnySyncLimits()
    }

    package struct Log: Sendable, Equatable {
        /// `log.level`: lines below it are dropped (`debug` adds one line per delivered push).
        package var level = LogLevel.info
        /// `log.format`: `text` (`key=value`) or `json` (one object per line).
        package var format = LogFormat.text
        /// `log.file`: appended to, reopened on SIGHUP; empty = standard error.
        package var file = ""
        /// `log.summaryInterval`, seconds: how often the delivery counts are logged.
        package var summaryInterval: Double = 60
    }

    package struct Server: Sendable, Equatable {
        /// `server.threads`: libmicrohttpd worker threads.
        package var threads = 8
        /// `server.connectionTimeout`, seconds: an idle connection is closed after this.
        package var connectionTimeout: Double = 30
        /// `server.shutdownTimeout`, seconds: how long shutdown waits for in-flight requests.
        package var shutdownTimeout: Double = 10
        /// `server.maxConnections`: concurrent connections per listener.
        package var maxConnections = 4096
        /// `server.maxConnectionsPerIP`: concurrent connections from one address; 0 = no limit.
        package var maxConnectionsPerIP = 0
        /// `server.maxHeaderBytes`: a connection's buffer for the request line and headers.
        package var maxHeaderBytes = 64 * 1024
        /// `server.requestTimeout`, seconds: a request's head and body must have arrived within this.
        package var requestTimeout: Double = 30
        /// `server.statusOnPublicListener`: serve `/status` and `/status.json` on `listen` too (by
        /// default only on `adminListen`: the page tells queue depths and failure reasons).
        package var statusOnPublicListener = false
    }
}

extension NodeConfig {
    /// The platforms of the app `default` (PROTOCOL §7): FCM → android, ios; all four APNs keys →
    /// apns, apns_voip; `huawei.appId` and `clientSecret` → huawei; `harmony.projectId` and
    /// `serviceAccountPath` → harmony; Web Push always (a VAPID key is generated when none is set).
    package var enabledPlatforms: Set<Platform> { allApps[0].enabledPlatforms }

    /// The platforms some app has credentials for: the providers the engine needs.
    package var anyAppPlatforms: Set<Platform> { allApps.reduce(into: []) { $0.formUnion($1.enabledPlatforms) } }

    /// One record per provider an app has no credentials for, to log once at start.
    package var unconfiguredProviderWarnings: [LogRecord] {
        var records: [LogRecord] = []
        for (index, app) in allApps.enumerated() {
            let prefix = Self.keyPrefix(ofApp: index)
            for provider in Provider.allCases {
                let missing = app.missingKeys(provider)
                guard !missing.isEmpty else { continue }
                var fields: [LogField] = []
                if !app.isDefault { fields.append(LogField("app", .string(app.id))) }
                records.append(LogRecord(.warn, "provider", fields + [
                    LogField("provider", .string(provider.rawValue)), LogField("state", "disabled"),
                    LogField("reason", .string(missing.map { prefix + $0 }.joined(separator: ",") + " unset")),
                    LogField("platforms", .string(provider.platforms.map(\.rawValue).joined(separator: ",")))]))
            }
        }
        return records
    }
}
