import Foundation
import PushProtocol
import PushSupport
@testable import PushClient

/// A scripted node: answers per `METHOD path` are taken from a queue, then from a default.
/// Records every call with its virtual time.
final class FakeTransport: NodeTransport, @unchecked Sendable {
    enum Answer: Sendable {
        case status(Int, headers: [String: String] = [:], body: String = "")
        case networkError

        static let ok = Answer.status(200, body: "{}")
        static func json(_ body: String) -> Answer { .status(200, body: body) }
        static func error(_ status: Int, _ code: String, headers: [String: String] = [:]) -> Answer {
            .status(status, headers: headers, body: #"{"error":{"code":"\#(code)","message":"test"}}"#)
        }
    }

    struct Call: Sendable {
        var method: String
        var path: String
        var body: [UInt8]?
        var at: Date

        var json: [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(body ?? []))) as? [String: Any] ?? [:]
        }
    }

    struct NetworkDown: Error {}

    private struct State {
        var scripts: [String: [Answer]] = [:]
        var defaults: [String: Answer] = [:]
        var calls: [Call] = []
        /// The node's subscription set, kept by the default PUT/POST/GET answers.
        var subscriptions: [WireTopic] = []
        var held = false
        var heldCalls: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Protected(State())
    private let clock: TestClock?

    /// A node that accepts everything: capabilities with the default limits, Notify `duplicate: false`.
    init(clock: TestClock? = nil, maxPayloadBytes: Int = 2816, maxTopicsPerRequest: Int = 256) {
        self.clock = clock
        state.withLock {
            $0.defaults = [
                "GET /v1/capabilities": .json(#"{"version":"test","platforms":[],"limits":{"maxPayloadBytes":\#(maxPayloadBytes),"maxTopicsPerRequest":\#(maxTopicsPerRequest),"maxSubscriptions":10000}}"#),
                "POST /v1/notify": .json(#"{"id":"n1","duplicate":false}"#),
                "POST /v1/notify/silent": .json(#"{"id":"s1","duplicate":false}"#),
                "GET /v1/subscriptions": .json(#"{"topics":[]}"#),
                "PUT /v1/subscriptions": .json(#"{"count":0}"#),
                "POST /v1/subscriptions": .json(#"{"count":0}"#),
                "POST /v1/tokens": .json(#"{"registrationId":"0123456789abcdef0123456789abcdef"}"#),
                "POST /v1/tokens/revoke": .json(#"{"success":true}"#),
                "POST /v1/spaces": .ok,
                "POST /v1/spaces/remove": .ok,
            ]
        }
    }

    /// Answers the next calls to `route` (`"POST /v1/notify"`) in order, then the default again.
    func script(_ route: String, _ answers: [Answer]) {
        state.withLock { $0.scripts[route, default: []] += answers }
    }

    func setDefault(_ route: String, _ answer: Answer) {
        state.withLock { $0.defaults[route] = answer }
    }

    var calls: [Call] { state.withLock { $0.calls } }

    /// The topics the fake node holds (after the default subscription answers).
    var subscriptions: Set<TopicRef> {
        state.withLock { Set($0.subscriptions.map { TopicRef(space: $0.spaceKey, topic: $0.topic) }) }
    }

    func setSubscriptions(_ topics: Set<TopicRef>) {
        state.withLock { $0.subscriptions = topics.map { WireTopic(spaceKey: $0.spaceKey.string, topic: $0.topic, signature: "") } }
    }

    /// From now on every call waits (before it is recorded) until `release()`.
    func hold() { state.withLock { $0.held = true } }

    func release() {
        let waiting = state.withLock { s -> [CheckedContinuation<Void, Never>] in
            s.held = false
            defer { s.heldCalls = [] }
            return s.heldCalls
        }
        waiting.forEach { $0.resume() }
    }

    func calls(_ route: String) -> [Call] {
        calls.filter { "\($0.method) \($0.path)" == route }
    }

    private static func subscriptions(method: String, body: [UInt8]?, state s: inout State) -> Answer {
        if method == "GET" {
            let list = WireSubscriptionList(topics: s.subscriptions.map { .init(spaceKey: $0.spaceKey, topic: $0.topic) })
            return .json(String(decoding: JSON.body(list), as: UTF8.self))
        }
        guard let topics = try? JSONDecoder().decode(WireTopics.self, from: Data(body ?? [])) else {
            return .error(400, "request.malformed")
        }
        if method == "PUT" { s.subscriptions = [] }
        for topic in topics.topics where !s.subscriptions.contains(where: { $0.spaceKey == topic.spaceKey && $0.topic == topic.topic }) {
            s.subscriptions.append(topic)
        }
        return .json(#"{"count":\#(s.subscriptions.count)}"#)
    }

    func send(method: String, path: String, query: String?, body: [UInt8]?) async throws -> NodeResponse {
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let wait = state.withLock { s -> Bool in
                if s.held { s.heldCalls.append(c) }
                return s.held
            }
            if !wait { c.resume() }
        }
        let route = "\(method) \(path)"
        let answer = state.withLock { s -> Answer in
            s.calls.append(Call(method: method, path: path, body: body, at: clock?.now() ?? TestClock.epoch))
            if var queue = s.scripts[route], !queue.isEmpty {
                let next = queue.removeFirst()
                s.scripts[route] = queue
                return next
            }
            if path == "/v1/subscriptions", s.defaults[route] != nil {
                return Self.subscriptions(method: method, body: body, state: &s)
            }
            return s.defaults[route] ?? .status(404, body: #"{"error":{"code":"not_found","message":"test"}}"#)
        }
        switch answer {
        case .networkError: throw NetworkDown()
        case let .status(status, headers, body): return NodeResponse(status: status, headers: headers, body: Array(body.utf8))
        }
    }
}
