import Foundation
import PushProtocol
import PushSupport
import Testing
@testable import PushConfig
@testable import PushNet
@testable import PushService

@Suite struct ConfigLoaderTests {
    func load(_ yaml: String, env: [String: String] = [:]) throws -> ConfigLoader.Loaded {
        try ConfigLoader.load(yaml: yaml, environment: env)
    }

    func issues(_ yaml: String, env: [String: String] = [:]) -> [String] {
        do {
            _ = try ConfigLoader.load(yaml: yaml, environment: env)
            return []
        } catch {
            return error.issues
        }
    }

    @Test func theStatusPageGoesOnThePublicListenerOnlyWhenAsked() throws {
        #expect(try load("server:\n  statusOnPublicListener: true\n").config.server.statusOnPublicListener)
        #expect(try load("", env: ["PUSHNODE_SERVER_STATUS_ON_PUBLIC_LISTENER": "true"]).config.server.statusOnPublicListener)
        #expect(issues("server:\n  statusOnPublicListener: sometimes\n").contains { $0.contains("server.statusOnPublicListener") })
    }

    @Test func theEmbeddedDefaultIsPROTOCOLSection7() throws {
        let config = try load("").config
        #expect(config.listen == ListenAddress(host: "127.0.0.1", port: 8765))
        #expect(config.adminListen == ListenAddress(host: "127.0.0.1", port: 9765))
        #expect(config.dataDir == "./pushnode-data")
        #expect(config.storage.driver == .sqlite)
        #expect(config.auth.clockSkew == 300)
        #expect(config.limits == Limits(maxPayloadBytes: 2816, maxTopicsPerRequest: 256, maxSubscriptions: 10000, maxBodyBytes: 4_194_304,
                                       maxRegistrationsPerAccount: 64, maxSpacesPerAccount: 256))
        #expect(config.spaces.requireRegistration == false)
        #expect(config.server.statusOnPublicListener == false)
        #expect(config.delivery.attempts == 6)
        #expect(config.delivery.initialBackoff == 10)
        #expect(config.delivery.maxBackoff == 600)
        #expect(config.delivery.queueCapacity == 100_000)
        #expect(config.delivery.httpEngine == .nghttp2)
        #expect(config.notifications.defaultAlert.title == "New message")
        #expect(config.notifications.defaultAlert.body == "")
        #expect(config.fcm.credentialsPath == "")
        #expect(config.fcm.baseURL == "https://fcm.googleapis.com")
        #expect(config.apns.useSandbox == false)
        #expect(config.webpush.subject == "mailto:admin@example.org")
        #expect(config.webpush.allowPrivateEndpoints == false)
        #expect(config.anysync.listen == nil)
        #expect(config.anysync.protocolVersions == 5...14)
        #expect(config.rateLimits == RateLimitPolicy(registrationPerMinute: 20, registrationBurst: 20, notifyPerSecond: 20, notifyBurst: 100))
        #expect(config.enabledPlatforms == [.webpush])
        #expect(config.log == NodeConfig.Log(level: .info, format: .text, file: "", summaryInterval: 60))
    }

    @Test func logSettingsComeFromTheFileOrTheEnvironment() throws {
        let fromFile = try load("log: {level: debug, format: json, file: /var/log/pushnode.log, summaryInterval: 5s}").config.log
        #expect(fromFile == NodeConfig.Log(level: .debug, format: .json, file: "/var/log/pushnode.log", summaryInterval: 5))
        let fromEnv = try load("log: {level: debug}", env: ["PUSHNODE_LOG_LEVEL": "warn", "PUSHNODE_LOG_FORMAT": "json",
                                                            "PUSHNODE_LOG_FILE": "/tmp/p.log",
                                                            "PUSHNODE_LOG_SUMMARY_INTERVAL": "2m"]).config.log
        #expect(fromEnv == NodeConfig.Log(level: .warn, format: .json, file: "/tmp/p.log", summaryInterval: 120))
        #expect(issues("log: {level: verbose}") == [#"log.level: expected one of debug, info, warn, error, got "verbose""#])
        #expect(issues("delivery: {httpEngine: curl}") == [#"delivery.httpEngine: expected one of nghttp2, libcurl, got "curl""#])
        #expect(try load("delivery: {httpEngine: libcurl}").config.delivery.httpEngine == .libcurl)
        #expect(issues("log: {format: xml}") == [#"log.format: expected one of text, json, got "xml""#])
    }

    @Test func theExampleFileParsesWithoutWarningsToTheDefaults() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("config.yaml.example"), encoding: .utf8)
        let loaded = try load(text)
        #expect(loaded.warnings.isEmpty)
        #expect(loaded.config == NodeConfig())
    }

    @Test func theExampleFileDocumentsEveryKey() throws {
        let text = try String(contentsOf: repositoryRoot.appendingPathComponent("config.yaml.example"), encoding: .utf8)
        for key in ConfigKey.all {
            let leaf = String(key.path.split(separator: ".").last!)
            #expect(text.contains(leaf + ":"), "config.yaml.example does not mention \(key.path)")
        }
    }

    @Test func flowMapsBlockMapsAndQuotedStrings() throws {
        let config = try load("""
            listen: "[::1]:9000"
            adminListen: 127.0.0.1:9001
            storage: {driver: postgres, url: "postgres://u:p@db/push", poolSize: 4}
            notifications: {defaultAlert: {title: "Hi", body: "there"}}
            apns:
              keyPath: /k.p8
              keyId: K
              teamId: T
              topic: org.example.app
            fcm: {credentialsPath: /creds.json}
            huawei: {appId: "10086", clientSecret: s3cr3t}
            harmony: {projectId: "388421841222199046", serviceAccountPath: /harmony.json}
            """).config
        #expect(config.listen == ListenAddress(host: "::1", port: 9000))
        #expect(config.adminListen == ListenAddress(host: "127.0.0.1", port: 9001))
        #expect(config.storage == NodeConfig.Storage(driver: .postgres, url: "postgres://u:p@db/push", poolSize: 4))
        #expect(config.notifications.defaultAlert.title == "Hi")
        #expect(config.notifications.defaultAlert.body == "there")
        #expect(config.enabledPlatforms == Set(Platform.allCases))
    }

    @Test func durationsTakeMsSecondsMinutesAndHours() throws {
        #expect(try load("auth: {clockSkew: 500ms}").config.auth.clockSkew == 0.5)
        #expect(try load("auth: {clockSkew: 45s}").config.auth.clockSkew == 45)
        #expect(try load("auth: {clockSkew: 10m}").config.auth.clockSkew == 600)
        #expect(try load("auth: {clockSkew: 1.5h}").config.auth.clockSkew == 5400)
        #expect(issues("auth: {clockSkew: 300}") == ["auth.clockSkew: expected a duration like 300s, 10m, 1h or 500ms, got \"300\""])
        #expect(issues("auth: {clockSkew: 5d}").count == 1)
        #expect(issues("auth: {clockSkew: 0s}") == ["auth.clockSkew: must be longer than 0"])
    }

    @Test func theEnvironmentWinsOverTheFile() throws {
        let config = try load("listen: 127.0.0.1:1000\nlimits: {maxBodyBytes: 10}", env: [
            "PUSHNODE_LISTEN": "0.0.0.0:2000",
            "PUSHNODE_LIMITS_MAX_BODY_BYTES": "20",
            "PUSHNODE_APNS_USE_SANDBOX": "true",
            "PUSHNODE_NOTIFICATIONS_DEFAULT_ALERT_TITLE": "Ping",
            "PUSHNODE_FCM_BASE_URL": "http://127.0.0.1:9999",
            "PUSHNODE_RATE_LIMITS_NOTIFY_PER_SECOND": "2.5",
        ]).config
        #expect(config.listen == ListenAddress(host: "0.0.0.0", port: 2000))
        #expect(config.limits.maxBodyBytes == 20)
        #expect(config.apns.useSandbox)
        #expect(config.notifications.defaultAlert.title == "Ping")
        #expect(config.fcm.baseURL == "http://127.0.0.1:9999")
        #expect(config.rateLimits.notifyPerSecond == 2.5)
    }

    @Test func environmentNamesAreUpperSnakeCase() {
        let names = Dictionary(uniqueKeysWithValues: ConfigKey.all.map { ($0.path, $0.environmentName) })
        #expect(names["apns.keyPath"] == "PUSHNODE_APNS_KEY_PATH")
        #expect(names["limits.maxPayloadBytes"] == "PUSHNODE_LIMITS_MAX_PAYLOAD_BYTES")
        #expect(names["fcm.baseURL"] == "PUSHNODE_FCM_BASE_URL")
        #expect(names["adminListen"] == "PUSHNODE_ADMIN_LISTEN")
        #expect(names["dataDir"] == "PUSHNODE_DATA_DIR")
        #expect(names["server.statusOnPublicListener"] == "PUSHNODE_SERVER_STATUS_ON_PUBLIC_LISTENER")
        #expect(names["apns.keyId"] == "PUSHNODE_APNS_KEY_ID")
        #expect(names["anysync.protocolVersions"] == "PUSHNODE_ANYSYNC_PROTOCOL_VERSIONS")
        #expect(Set(names.values).count == names.count)
    }

    @Test func wrongTypesAreErrorsNamingTheKeyOrVariable() {
        #expect(issues("limits: {maxBodyBytes: lots}") == ["limits.maxBodyBytes: expected an integer, got \"lots\""])
        #expect(issues("", env: ["PUSHNODE_LIMITS_MAX_BODY_BYTES": "x"])
                == ["PUSHNODE_LIMITS_MAX_BODY_BYTES (limits.maxBodyBytes): expected an integer, got \"x\""])
        #expect(issues("spaces: {requireRegistration: maybe}") == ["spaces.requireRegistration: expected true or false, got \"maybe\""])
        #expect(issues("listen: 8765") == ["listen: expected host:port"])
        #expect(issues("listen: 127.0.0.1:99999") == ["listen: port must be 0-65535"])
        #expect(issues("storage: {driver: mysql}") == ["storage.driver: expected sqlite or postgres, got \"mysql\""])
        #expect(issues("limits: 5") == ["limits: expected a mapping of keys (line 1)"])
        #expect(issues("limits: {maxBodyBytes: [1, 2]}") == ["limits.maxBodyBytes: expected a single value (line 1)"])
        #expect(issues("limits: {maxBodyBytes: 0}") == ["limits.maxBodyBytes: must be at least 1, got 0"])
    }

    @Test func everyProblemIsReportedAtOnce() {
        #expect(issues("limits: {maxBodyBytes: x, maxPayloadBytes: y}\nlisten: nope").count == 3)
    }

    @Test func crossKeyRules() {
        #expect(issues("delivery: {initialBackoff: 1m, maxBackoff: 30s}")
                == ["delivery.maxBackoff: must not be shorter than delivery.initialBackoff"])
        #expect(issues("storage: {driver: postgres}") == ["storage.url: required when storage.driver is postgres"])
    }

    @Test func secretsAreNotRepeatedInMessages() {
        let problems = issues("fcm: {baseURL: \"ftp://secret-host/x\"}")
        #expect(problems == ["fcm.baseURL: expected an http(s) URL"])
    }

    @Test func unknownKeysAreWarningsNotErrors() throws {
        let loaded = try load("listne: 127.0.0.1:1\nlimits: {maxBodyByte: 3}")
        #expect(loaded.warnings == ["unknown config key listne (line 1) ignored",
                                    "unknown config key limits.maxBodyByte (line 2) ignored"])
    }

    @Test func duplicateKeysAndBrokenYAMLAreErrors() {
        #expect(issues("listen: 127.0.0.1:1\nlisten: 127.0.0.1:2") == ["listen: duplicate key (line 2)"])
        #expect(issues("limits: {maxBodyBytes: 1").first?.hasPrefix("config is not valid YAML") == true)
        #expect(issues("- a\n- b") == ["config must be a mapping of keys"])
    }

    @Test func nullMeansDefaultButQuotedEmptyIsAValue() throws {
        #expect(try load("adminListen:\nlisten: ~").config == NodeConfig())
        #expect(try load("adminListen: \"\"").config.adminListen == nil)
        #expect(try load("", env: ["PUSHNODE_ADMIN_LISTEN": ""]).config.adminListen == nil)
        #expect(issues("dataDir: \"\"") == ["dataDir: must not be empty"])
    }

    @Test func partialAPNsCredentialsWarnAndLeaveAPNsOff() throws {
        let loaded = try load("apns: {keyPath: /k.p8, keyId: K}")
        #expect(loaded.warnings == ["APNs is off: apns.teamId, apns.topic unset while other apns keys are set"])
        #expect(!loaded.config.enabledPlatforms.contains(.apns))
        #expect(loaded.config.unconfiguredProviderWarnings.count == 4)
    }

    @Test func credentialFilesMustBeReadableAndWellFormed() throws {
        var config = NodeConfig()
        config.fcm.credentialsPath = "/nonexistent/creds.json"
        #expect(config.credentialIssues() == ["fcm.credentialsPath: cannot read /nonexistent/creds.json"])
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("pushnode-creds-\(UUID().uuidString).json")
        try Data("{\"client_email\": \"a@b\"}".utf8).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        config.fcm.credentialsPath = file.path
        #expect(config.credentialIssues().first?.hasPrefix("fcm.credentialsPath:") == true)
        try Data("{\"client_email\": \"a@b\", \"private_key\": \"k\"}".utf8).write(to: file)
        #expect(config.credentialIssues().isEmpty)
    }
}

@Suite struct ListenAddressTests {
    @Test func parsesIPv4IPv6AndNames() throws {
        #expect(try ListenAddress(parsing: "0.0.0.0:80") == ListenAddress(host: "0.0.0.0", port: 80))
        #expect(try ListenAddress(parsing: "[::]:0") == ListenAddress(host: "::", port: 0))
        #expect(try ListenAddress(parsing: "localhost:8765") == ListenAddress(host: "localhost", port: 8765))
        #expect(ListenAddress(host: "::1", port: 5).description == "[::1]:5")
        #expect(throws: ConfigValueError.self) { try ListenAddress(parsing: "::1:80") }
        #expect(throws: ConfigValueError.self) { try ListenAddress(parsing: ":80") }
        #expect(throws: ConfigValueError.self) { try ListenAddress(parsing: "[::1]80") }
    }
}
