import PushNet
import PushSupport

extension ConfigKey {
    /// Every key the node reads, in the order of `config.yaml.example`.
    static var all: [ConfigKey] {
        [
            ConfigKey(path: "listen") { config, text throws(ConfigValueError) in
                config.listen = try ListenAddress(parsing: text)
            },
            .address("adminListen", \.adminListen),
            ConfigKey(path: "dataDir") { config, text throws(ConfigValueError) in
                guard !text.isEmpty else { throw ConfigValueError("must not be empty") }
                config.dataDir = text
            },
            ConfigKey(path: "storage.driver") { config, text throws(ConfigValueError) in
                guard let driver = NodeConfig.StorageDriver(rawValue: text) else {
                    throw ConfigValueError("expected sqlite or postgres, got \"\(text)\"")
                }
                config.storage.driver = driver
            },
            .string("storage.url", \.storage.url),
            .int("storage.poolSize", \.storage.poolSize),
            .duration("storage.claimLease", \.storage.claimLease),
            .duration("storage.outcomeRetention", \.storage.outcomeRetention),
            .duration("auth.clockSkew", \.auth.clockSkew),
            .int("limits.maxPayloadBytes", \.limits.maxPayloadBytes),
            .int("limits.maxTopicsPerRequest", \.limits.maxTopicsPerRequest),
            .int("limits.maxSubscriptions", \.limits.maxSubscriptions),
            .int("limits.maxBodyBytes", \.limits.maxBodyBytes),
            .int("limits.maxRegistrationsPerAccount", \.limits.maxRegistrationsPerAccount),
            .int("limits.maxSpacesPerAccount", \.limits.maxSpacesPerAccount),
            .int("limits.newAccountsPerAddress", \.limits.newAccountsPerAddress, minimum: 0),
            .bool("spaces.requireRegistration", \.spaces.requireRegistration),
            .int("delivery.attempts", \.delivery.attempts),
            .duration("delivery.initialBackoff", \.delivery.initialBackoff),
            .duration("delivery.maxBackoff", \.delivery.maxBackoff),
            .int("delivery.queueCapacity", \.delivery.queueCapacity),
            .oneOf("delivery.httpEngine", \.delivery.httpEngine),
            .string("notifications.defaultAlert.title", \.notifications.defaultAlert.title),
            .string("notifications.defaultAlert.body", \.notifications.defaultAlert.body),
            .string("fcm.credentialsPath", \.fcm.credentialsPath),
            .url("fcm.baseURL", \.fcm.baseURL, optional: false),
            .string("apns.keyPath", \.apns.keyPath),
            .string("apns.keyId", \.apns.keyId),
            .string("apns.teamId", \.apns.teamId),
            .string("apns.topic", \.apns.topic),
            .bool("apns.useSandbox", \.apns.useSandbox),
            .url("apns.host", \.apns.host, optional: true),
            .url("apns.developmentHost", \.apns.developmentHost, optional: true),
            .duration("apns.tokenRenewal", \.apns.tokenRenewal),
            .duration("apns.tokenMinInterval", \.apns.tokenMinInterval),
            .string("huawei.appId", \.huawei.appId),
            .string("huawei.clientSecret", \.huawei.clientSecret),
            .url("huawei.baseURL", \.huawei.baseURL, optional: false),
            .url("huawei.tokenURL", \.huawei.tokenURL, optional: false),
            .string("harmony.projectId", \.harmony.projectId),
            .string("harmony.serviceAccountPath", \.harmony.serviceAccountPath),
            .url("harmony.baseURL", \.harmony.baseURL, optional: false),
            .string("webpush.vapidKeyPath", \.webpush.vapidKeyPath),
            ConfigKey(path: "webpush.subject") { config, text throws(ConfigValueError) in
                let lower = text.lowercased()
                guard lower.hasPrefix("mailto:") || lower.hasPrefix("https://") else {
                    throw ConfigValueError("must be a mailto: or https: URI (RFC 8292)")
                }
                config.webpush.subject = text
            },
            .bool("webpush.allowPrivateEndpoints", \.webpush.allowPrivateEndpoints),
            .string("tls.caFile", \.tls.caFile),
            .address("anysync.listen", \.anysync.listen),
            .string("anysync.peerKeyPath", \.anysync.peerKeyPath),
            ConfigKey(path: "anysync.protocolVersions") { config, text throws(ConfigValueError) in
                config.anysync.protocolVersions = try ConfigValue.versionRange(text)
            },
            .duration("anysync.handshakeTimeout", \.anysync.limits.handshakeTimeout),
            .duration("anysync.idleTimeout", \.anysync.limits.idleTimeout),
            .duration("anysync.writeTimeout", \.anysync.limits.writeTimeout),
            .int("anysync.maxConnections", \.anysync.limits.maxConnections),
            .int("anysync.maxPendingHandshakes", \.anysync.limits.maxPendingHandshakes),
            .int("anysync.maxStreams", \.anysync.limits.maxStreams),
            .int("anysync.maxHandshakeFrameBytes", \.anysync.limits.maxHandshakeFrameBytes, minimum: 64),
            ConfigKey(path: "anysync.maxFrameBytes") { config, text throws(ConfigValueError) in
                let n = try ConfigValue.int(text, minimum: 64)
                // A Data frame larger than the stream window could never be sent within it.
                guard n <= AnySyncLimits.yamuxWindow else {
                    throw ConfigValueError("must be at most \(AnySyncLimits.yamuxWindow) (the yamux window), got \(n)")
                }
                config.anysync.limits.maxFrameBytes = n
            },
            .number("rateLimits.registrationPerMinute", \.rateLimits.registrationPerMinute),
            .int("rateLimits.registrationBurst", \.rateLimits.registrationBurst),
            .number("rateLimits.notifyPerSecond", \.rateLimits.notifyPerSecond),
            .int("rateLimits.notifyBurst", \.rateLimits.notifyBurst),
            ConfigKey(path: "server.threads") { config, text throws(ConfigValueError) in
                let n = try ConfigValue.int(text, minimum: 1)
                guard n <= 1024 else { throw ConfigValueError("must be at most 1024, got \(n)") }
                config.server.threads = n
            },
            .duration("server.connectionTimeout", \.server.connectionTimeout),
            .duration("server.shutdownTimeout", \.server.shutdownTimeout),
            .int("server.maxConnections", \.server.maxConnections),
            .oneOf("log.level", \.log.level),
            .oneOf("log.format", \.log.format),
            .string("log.file", \.log.file),
            .duration("log.summaryInterval", \.log.summaryInterval),
            .int("server.maxConnectionsPerIP", \.server.maxConnectionsPerIP, minimum: 0),
            .int("server.maxHeaderBytes", \.server.maxHeaderBytes, minimum: 1024),
            .duration("server.requestTimeout", \.server.requestTimeout),
            .bool("server.statusOnPublicListener", \.server.statusOnPublicListener),
            .bool("matrix.enabled", \.matrix.enabled),
            .bool("matrix.forwardContent", \.matrix.forwardContent),
            ConfigKey(path: "matrix.allowedSources") { config, text throws(ConfigValueError) in
                config.matrix.allowedSources = try ConfigValue.networks(text)
            },
            .number("matrix.limits.sourcePerSecond", \.matrix.sourcePerSecond),
            .int("matrix.limits.sourceBurst", \.matrix.sourceBurst),
            .number("matrix.limits.pushkeyPerMinute", \.matrix.pushkeyPerMinute),
            .int("matrix.limits.pushkeyBurst", \.matrix.pushkeyBurst),
        ]
    }
}
