import Foundation
import PushCrypto
import PushProtocol
import Testing
@testable import PushConfig
@testable import PushHTTP
import PushMetrics
@testable import PushNet
@testable import PushNode
@testable import PushSupport

@Suite(.serialized) struct NodeTests {
    func config(admin: Bool) -> NodeConfig {
        var config = NodeConfig()
        config.listen = ListenAddress(host: "127.0.0.1", port: 0)
        config.adminListen = admin ? ListenAddress(host: "127.0.0.1", port: 0) : nil
        config.dataDir = FileManager.default.temporaryDirectory.appendingPathComponent("pushnode-node-\(UUID().uuidString)").path
        config.server.threads = 2
        config.server.shutdownTimeout = 5
        return config
    }

    @Test func theProductionNodeServesOperationsAndSignedRoutes() throws {
        let config = config(admin: false)
        let node = Node(config: config, log: .discard)
        try node.start()
        defer {
            node.shutdown()
            try? FileManager.default.removeItem(atPath: config.dataDir)
        }
        #expect(FileManager.default.fileExists(atPath: config.dataDir))
        #expect(throws: Node.StartError.self) { try node.start() }
        let c = try RawHTTPClient(port: node.port)
        let ready = try c.request("GET", "/readyz").text
        #expect(ready.contains("\"status\":\"ready\"") && ready.contains("\"providers\":{\"webpush\":\"healthy\"}"))
        let metrics = try c.request("GET", "/metrics").text
        #expect(metrics.contains("pushnode_http_requests_in_flight 1"))
        #expect(metrics.contains("pushnode_replay_cache_entries 0"))
        let headers = try HTTPSigner(key: Keys.alice).sign(method: "GET", path: "/v1/tokens").fields
        let response = try c.request("GET", "/v1/tokens", headers: headers)
        #expect(response.status == 200)
        #expect(response.text == "{\"registrations\":[]}")
        #expect(FileManager.default.fileExists(atPath: config.dataDir + "/pushnode.sqlite"))
        #expect(FileManager.default.fileExists(atPath: config.dataDir + "/vapid.pem"))
    }

    /// A shut-down node leaves nothing behind: its metrics registry, whose gauges sample the API
    /// server and the store while the server's router renders the registry, goes with it.
    @Test func aShutDownNodeIsFreedWithItsRegistry() throws {
        let config = config(admin: false)
        defer { try? FileManager.default.removeItem(atPath: config.dataDir) }
        weak var registry: MetricsRegistry?
        do {
            let node = Node(config: config, log: .discard)
            try node.start()
            registry = node.metrics
            let c = try RawHTTPClient(port: node.port)
            #expect(try c.request("GET", "/metrics").text.contains("pushnode_outbox_depth"))
            node.shutdown()
        }
        waitUntil { registry == nil }
    }

    @Test func theBackendIsOpenedWithTheEnabledPlatformsAndClosedAtShutdown() throws {
        var config = config(admin: true)
        config.apns = NodeConfig.APNs(keyPath: "", keyId: "K", teamId: "T", topic: "t")
        let opened = Protected<Set<Platform>?>(nil)
        let closed = Protected(0)
        let dependencies = Node.Dependencies(
            openBackend: { _, platforms, _, _, _ in
                opened.withLock { $0 = platforms }
                return NodeBackend(handler: { _, account in HTTPResponse(status: 200, body: Array(account.string.utf8)) },
                                   close: { closed.withLock { $0 += 1 } })
            },
            vapidPublicKey: { _, _ in "BVapid" })
        let node = Node(config: config, dependencies: dependencies, log: .discard)
        try node.start()
        #expect(opened.withLock { $0 } == [.webpush])
        let api = try RawHTTPClient(port: node.port)
        let headers = try HTTPSigner(key: Keys.alice).sign(method: "GET", path: "/v1/tokens").fields
        #expect(try api.request("GET", "/v1/tokens", headers: headers).text == Keys.alice.accountID.string)
        #expect(try api.request("GET", "/v1/capabilities").text.contains("\"vapidPublicKey\":\"BVapid\""))
        // With an admin listener, /metrics lives there only.
        #expect(try api.request("GET", "/metrics").status == 404)
        let admin = try RawHTTPClient(port: try #require(node.adminPort))
        #expect(try admin.request("GET", "/metrics").text.contains("pushnode_http_requests_total"))
        #expect(try admin.request("GET", "/v1/capabilities").status == 404)

        node.shutdown()
        node.shutdown()
        #expect(closed.withLock { $0 } == 1)
        #expect(node.readiness == .draining)
        try? FileManager.default.removeItem(atPath: config.dataDir)
    }

    @Test func aStorageFailureStopsTheListenersAndNamesStorage() throws {
        let config = config(admin: false)
        struct Broken: Error, CustomStringConvertible { var description: String { "disk on fire" } }
        let node = Node(config: config, dependencies: .init(openBackend: { _, _, _, _, _ in throw Broken() }, vapidPublicKey: { _, _ in "" }),
                        log: .discard)
        #expect(throws: Node.StartError.self) { try node.start() }
        #expect(node.port == 0)
        try? FileManager.default.removeItem(atPath: config.dataDir)
    }

    @Test func unreadableCredentialsStopTheStart() {
        var config = config(admin: false)
        config.fcm.credentialsPath = "/nonexistent/fcm.json"
        do {
            try Node(config: config, log: .discard).start()
            Issue.record("start should fail")
        } catch {
            #expect(error.description.contains("fcm.credentialsPath"))
        }
    }

    @Test func shutdownLetsAnInFlightRequestFinishBeforeClosingStorage() throws {
        let config = config(admin: false)
        let entered = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        let events = Protected<[String]>([])
        let dependencies = Node.Dependencies(
            openBackend: { _, _, _, _, _ in
                NodeBackend(handler: { _, _ in
                                entered.signal()
                                release.wait()
                                events.withLock { $0.append("answered") }
                                return HTTPResponse(status: 200, body: Array("done".utf8))
                            },
                            close: { events.withLock { $0.append("closed") } })
            },
            vapidPublicKey: { _, _ in "" })
        let node = Node(config: config, dependencies: dependencies, log: .discard)
        try node.start()
        defer { try? FileManager.default.removeItem(atPath: config.dataDir) }

        let port = node.port
        let headers = try HTTPSigner(key: Keys.alice).sign(method: "GET", path: "/v1/tokens").fields
        let answer = Protected<RawHTTPClient.Response?>(nil)
        let requestDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            let response = try? RawHTTPClient(port: port).request("GET", "/v1/tokens", headers: headers)
            answer.withLock { $0 = response }
            requestDone.signal()
        }
        entered.wait()
        let shutdownDone = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
            node.shutdown()
            shutdownDone.signal()
        }
        while node.readiness != .draining { Thread.sleep(forTimeInterval: 0.001) }
        #expect(events.withLock { $0 }.isEmpty)
        release.signal()
        requestDone.wait()
        shutdownDone.wait()
        #expect(answer.withLock { $0?.status } == 200)
        #expect(answer.withLock { $0?.header("connection") } == "close")
        #expect(events.withLock { $0 } == ["answered", "closed"])
    }
}
