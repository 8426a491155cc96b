import Foundation
import PushProtocol
import Testing
@testable import PushConfig

/// `apps` in config.yaml (PROTOCOL §10): entries parse like the top-level sections, every
/// problem names its key, variables reach entries by index.
@Suite struct AppsConfigTests {
    func issues(_ yaml: String, env: [String: String] = [:]) -> [String] { ConfigLoaderTests().issues(yaml, env: env) }

    static let twoApps = """
        apns: {keyPath: /k/default.p8, keyId: K0, teamId: T0, topic: org.example.default, host: "https://127.0.0.1:1"}
        webpush: {subject: "mailto:ops@example.org"}
        apps:
          - id: chat
            fcm: {credentialsPath: /k/chat.json}
            apns: {keyPath: /k/chat.p8, keyId: K1, teamId: T1, topic: org.example.chat, developmentHost: "https://127.0.0.1:2"}
            webpush: {vapidKeyPath: /k/chat-vapid.pem}
          - id: chat-beta
        """

    @Test func entriesHaveTheirOwnCredentialsAndTakeWhereKeysFromTheTopLevel() throws {
        let config = try ConfigLoader.load(yaml: Self.twoApps).config
        #expect(config.allApps.map(\.id) == ["default", "chat", "chat-beta"])
        let chat = try #require(config.app("chat"))
        #expect(chat.fcm.credentialsPath == "/k/chat.json" && chat.fcm.baseURL == "https://fcm.googleapis.com")
        #expect(chat.apns == NodeConfig.APNs(keyPath: "/k/chat.p8", keyId: "K1", teamId: "T1", topic: "org.example.chat",
                                             host: "https://127.0.0.1:1", developmentHost: "https://127.0.0.1:2"))
        #expect(chat.webpush.vapidKeyPath == "/k/chat-vapid.pem" && chat.webpush.subject == "mailto:ops@example.org")
        #expect(chat.enabledPlatforms == [.android, .ios, .apns, .apnsVoip, .webpush])
        let beta = try #require(config.app("chat-beta"))
        #expect(beta.apns.keyPath.isEmpty && beta.fcm.credentialsPath.isEmpty, "credentials are never inherited")
        #expect(beta.enabledPlatforms == [.webpush])
        #expect(config.app("")?.id == "default", "a registration stored without an app is default's")
        #expect(config.enabledPlatforms == [.webpush, .apns, .apnsVoip])
        #expect(config.anyAppPlatforms == [.android, .ios, .apns, .apnsVoip, .webpush])
    }

    @Test func aConfigWithoutAppsIsTheDefaultAppAlone() throws {
        let config = try ConfigLoader.load(yaml: "fcm: {credentialsPath: /k/f.json}").config
        #expect(config.apps.isEmpty && config.allApps.map(\.id) == ["default"])
        #expect(config.allApps[0].fcm == config.fcm)
    }

    @Test func problemsNameTheKeyOfTheEntry() {
        #expect(issues("apps: {id: x}") == ["apps: expected a list of apps (line 1)"])
        #expect(issues("apps: [{id: a}, {id: a}]") == [#"apps[1].id: duplicate app id "a""#])
        #expect(issues("apps: [{id: default}]") == [#"apps[0].id: "default" is the app of the top-level sections"#])
        #expect(issues("apps: [{fcm: {credentialsPath: /x}}]") == ["apps[0].id: required, 1–128 characters without control characters"])
        #expect(issues("apps: [{id: \(String(repeating: "a", count: 129))}]").count == 1)
        #expect(issues("apps: [{id: a, apns: {keyPth: /x}}]") == ["apps[0].apns.keyPth: unknown key of an app (line 1)"])
        #expect(issues("apps: [{id: a, webpush: {allowPrivateEndpoints: true}}]")
                == ["apps[0].webpush.allowPrivateEndpoints: unknown key of an app (line 1)"])
        #expect(issues("apps: [{id: a, fcm: {baseURL: nope}}]") == ["apps[0].fcm.baseURL: expected an http(s) URL"])
        #expect(issues("apps: [{id: a, huawei: {clientID: x}}]") == ["apps[0].huawei.clientID: unknown key of an app (line 1)"])
        #expect(issues("apps: [a]") == ["apps[0]: expected a mapping with an id and provider sections"])
    }

    @Test func variablesReachEntriesByIndex() throws {
        let env = ["PUSHNODE_APPS_0_APNS_KEY_PATH": "/env/chat.p8", "PUSHNODE_APPS_1_WEBPUSH_SUBJECT": "https://example.org"]
        let config = try ConfigLoader.load(yaml: Self.twoApps, environment: env).config
        #expect(config.app("chat")?.apns.keyPath == "/env/chat.p8")
        #expect(config.app("chat-beta")?.webpush.subject == "https://example.org")
        #expect(issues(Self.twoApps, env: ["PUSHNODE_APPS_2_FCM_CREDENTIALS_PATH": "/x"])
                == ["PUSHNODE_APPS_2_FCM_CREDENTIALS_PATH: no such key of an apps entry in the config file (PUSHNODE_APPS_<index>_<KEY>)"])
        #expect(issues(Self.twoApps, env: ["PUSHNODE_APPS_0_ID": "x"]).count == 1, "an id comes from the file only")
        #expect(issues(Self.twoApps, env: ["PUSHNODE_APPS_1_WEBPUSH_SUBJECT": "ops"])
                == ["PUSHNODE_APPS_1_WEBPUSH_SUBJECT (apps[1].webpush.subject): must be a mailto: or https: URI (RFC 8292)"])
    }

    @Test func unreadableCredentialsOfAnEntryNameItsKey() throws {
        let config = try ConfigLoader.load(yaml: Self.twoApps).config
        let issues = config.credentialIssues()
        #expect(issues.contains("apps[0].apns.keyPath: cannot read /k/chat.p8"))
        #expect(issues.contains("apps[0].fcm.credentialsPath: cannot read /k/chat.json"))
        #expect(issues.contains("apns.keyPath: cannot read /k/default.p8"))
    }

    @Test func pushKitSectionsAreAnAppsOwnAndTakeWhereKeysFromTheTopLevel() throws {
        let yaml = """
            huawei: {appId: "100", clientSecret: s0, baseURL: "https://127.0.0.1:3", tokenURL: "https://127.0.0.1:4/t"}
            harmony: {projectId: "p0", serviceAccountPath: /k/h0.json, baseURL: "https://127.0.0.1:5"}
            apps:
              - id: chat
                huawei: {appId: "101"}
                harmony: {projectId: "p1", serviceAccountPath: /k/h1.json}
              - id: beta
            """
        let env = ["PUSHNODE_APPS_0_HUAWEI_CLIENT_SECRET": "s1"]
        let config = try ConfigLoader.load(yaml: yaml, environment: env).config
        let chat = try #require(config.app("chat"))
        #expect(chat.huawei == NodeConfig.Huawei(appId: "101", clientSecret: "s1", baseURL: "https://127.0.0.1:3",
                                                 tokenURL: "https://127.0.0.1:4/t"))
        #expect(chat.harmony == NodeConfig.Harmony(projectId: "p1", serviceAccountPath: "/k/h1.json", baseURL: "https://127.0.0.1:5"))
        #expect(chat.enabledPlatforms == [.webpush, .huawei, .harmony])
        let beta = try #require(config.app("beta"))
        #expect(beta.huawei.appId.isEmpty && beta.huawei.clientSecret.isEmpty && beta.harmony.serviceAccountPath.isEmpty,
                "credentials are never inherited")
        #expect(beta.enabledPlatforms == [.webpush])
        #expect(config.credentialIssues().contains("apps[0].harmony.serviceAccountPath: cannot read /k/h1.json"))
        #expect(issues(yaml, env: ["PUSHNODE_APPS_0_HUAWEI_BASE_URL": "ftp://x"])
                == ["PUSHNODE_APPS_0_HUAWEI_BASE_URL (apps[0].huawei.baseURL): expected an http(s) URL"])
    }

    @Test func eachAppWithoutAProviderIsWarnedOnce() throws {
        let config = try ConfigLoader.load(yaml: Self.twoApps).config
        let reasons = config.unconfiguredProviderWarnings.map { $0.fields.first { $0.key == "reason" }?.value }
        #expect(reasons == [.string("fcm.credentialsPath unset"), .string("huawei.appId,huawei.clientSecret unset"),
                            .string("harmony.projectId,harmony.serviceAccountPath unset"),
                            .string("apps[0].huawei.appId,apps[0].huawei.clientSecret unset"),
                            .string("apps[0].harmony.projectId,apps[0].harmony.serviceAccountPath unset"),
                            .string("apps[1].fcm.credentialsPath unset"),
                            .string("apps[1].apns.keyPath,apps[1].apns.keyId,apps[1].apns.teamId,apps[1].apns.topic unset"),
                            .string("apps[1].huawei.appId,apps[1].huawei.clientSecret unset"),
                            .string("apps[1].harmony.projectId,apps[1].harmony.serviceAccountPath unset")])
    }
}
