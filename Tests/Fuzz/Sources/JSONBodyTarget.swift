import Foundation
import PushCrypto
@testable import PushHTTP
import PushMatrix
import PushNet
import PushService
import PushStore

/// The JSON body of every route with one, through the node's own path: `RouteTable` →
/// `ServiceRoutes` → `JSON.decode` → `PushService` (its rules, on a fresh `MemoryStore` per input).
/// The first byte picks the route; the answer must be a status the contract has. The Matrix door's
/// route is not a service call: its body goes through the door's own parser, whose every failure
/// is a typed Matrix error.
enum JSONBodyTarget {
    static let routes = RouteTable.routes.filter { $0.method != "GET" }
    static let caller = try! AccountID(publicKey: Ed25519.KeyPair(seed: [UInt8](repeating: 7, count: 32)).publicKey)
    static let statuses: Set<Int> = [200, 400, 401, 403, 404, 409, 413, 422, 429, 500, 503]

    /// No DNS from a fuzz run: every endpoint host is unknown.
    struct NoResolver: HostResolving {
        func resolve(_ host: String) -> HostResolution { .notFound }
    }

    static func run(_ bytes: [UInt8]) {
        let (selector, body) = bytes.selectorAndRest
        let route = routes[Int(selector) % routes.count]
        let store = MemoryStore()
        defer { store.close() }
        let service = PushService(store: store, configuration: .init(), resolver: NoResolver())
        if case .gateway = route.target {
            _ = try? MatrixNotifyRequest.decode(body)
            return
        }
        let request = HTTPRequest(method: route.method, path: route.path, body: body)
        guard let response = ServiceRoutes(service: service).handle(request, caller: caller) else {
            FuzzCheck.expect(false, "\(route.method) \(route.path) is in the route table but has no service call")
            return
        }
        FuzzCheck.expect(statuses.contains(response.status) && response.status != 500,
                         "\(route.method) \(route.path) answered \(response.status): \(response.body.text)")
    }
}
