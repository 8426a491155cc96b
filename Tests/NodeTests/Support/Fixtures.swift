import Foundation
import PushCrypto
import PushProtocol
@testable import PushHTTP

/// A clock tests move by hand.
final class TestClock: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Double

    init(_ start: Double) { value = start }

    var now: Double {
        lock.lock()
        defer { lock.unlock() }
        return value
    }

    func advance(_ seconds: Double) {
        lock.lock()
        value += seconds
        lock.unlock()
    }

    var function: @Sendable () -> Double { { self.now } }
}

enum Keys {
    static let alice = try! AccountKey(seed: Array(repeating: 1, count: 32))
    static let bob = try! AccountKey(seed: Array(repeating: 2, count: 32))
}

/// A counter of generated nonces, so each signed test request is distinct.
final class NonceSource: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func next() -> String {
        lock.lock()
        defer { lock.unlock() }
        n += 1
        return "test-nonce-\(String(format: "%08d", n))"
    }
}

extension HTTPRequest {
    /// A request signed by `key` at `created` (Unix seconds).
    static func signed(_ method: String, _ path: String, query: String? = nil, body: [UInt8] = [],
                       key: AccountKey = Keys.alice, created: Int64, nonce: String? = nil) -> HTTPRequest {
        let nonces = NonceSource()
        let signer = HTTPSigner(key: key, now: { created }, nonce: { nonce ?? nonces.next() + UUID().uuidString })
        let headers = try! signer.sign(method: method, path: path, query: query, body: body)
        var fields: [String: String] = [:]
        for (name, value) in headers.fields { fields[name.lowercased()] = value }
        return HTTPRequest(method: method, path: path, query: query, headers: fields, body: body)
    }
}

/// The repository root, for reading `Spec/` and `config.yaml.example`.
let repositoryRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().deletingLastPathComponent()
