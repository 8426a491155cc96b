import Testing
@testable import PushConfig
@testable import PushMatrix
@testable import PushNet

/// The `matrix` section (PROTOCOL §10): off by default, its two lists, and each entry checked.
@Suite struct MatrixConfigTests {
    func issues(_ yaml: String) -> [String] { ConfigLoaderTests().issues(yaml) }

    @Test func offByDefault() throws {
        let matrix = try ConfigLoader.load(yaml: "").config.matrix
        #expect(!matrix.enabled && !matrix.forwardContent && matrix.allowedSources.isEmpty && matrix.apps.isEmpty)
    }

    @Test func theListsAndKeys() throws {
        let loaded = try ConfigLoader.load(yaml: """
            matrix:
              enabled: true
              forwardContent: true
              allowedSources: [10.0.0.0/8, "::1"]
              limits: {pushkeyBurst: 5}
              apps:
                - {appId: "org.example.chat.android", app: default, platform: android}
                - {appId: "org.example.chat.ios.*", app: default, platform: apns, environment: development}
                - {appId: "org.example.chat.up", platform: webpush}
            """)
        #expect(loaded.warnings.isEmpty)
        let matrix = loaded.config.matrix
        #expect(matrix.enabled && matrix.forwardContent && matrix.pushkeyBurst == 5)
        #expect(matrix.allowedSources == [IPNetwork("10.0.0.0/8")!, IPNetwork("::1")!])
        #expect(matrix.apps == [
            MatrixAppRoute(appId: "org.example.chat.android", app: "default", platform: .android),
            MatrixAppRoute(appId: "org.example.chat.ios.*", app: "default", platform: .apns, environment: "development"),
            MatrixAppRoute(appId: "org.example.chat.up", app: "default", platform: .webpush),
        ])
        let fromEnvironment = try ConfigLoader.load(yaml: "", environment: ["PUSHNODE_MATRIX_ALLOWED_SOURCES": "192.0.2.0/24, ::1"])
        #expect(fromEnvironment.config.matrix.allowedSources.count == 2)
    }

    @Test func badEntriesNameTheirKey() {
        let found = issues("""
            matrix:
              allowedSources: [nowhere]
              apps:
                - {appId: "a", app: chat, platform: android}
                - {appId: "b", platform: huawei}
                - {appId: "c", platform: android, environment: production}
                - {app: default, platform: android, color: red}
                - just text
            """)
        #expect(found.contains { $0.hasPrefix("matrix.allowedSources:") })
        #expect(found.contains { $0.hasPrefix("matrix.apps[0].app: no app \"chat\"") })
        #expect(found.contains { $0.hasPrefix("matrix.apps[1].platform:") })
        #expect(found.contains { $0.hasPrefix("matrix.apps[2].environment:") })
        #expect(found.contains { $0.hasPrefix("matrix.apps[3].color: unknown key") })
        #expect(found.contains { $0.hasPrefix("matrix.apps[3].appId:") })
        #expect(found.contains { $0.hasPrefix("matrix.apps[4]:") })
    }
}
