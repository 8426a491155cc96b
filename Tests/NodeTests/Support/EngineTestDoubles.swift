import Foundation
import HTTPClient
import PushCrypto
import PushProtocol
import Testing
@testable import PushDelivery
@testable import PushEngine

/// A transport answering from a script per token (the FCM `message.token` or the APNs path's
/// last component): each request takes the next answer, the last one repeats; `nil` holds the
/// request unanswered until `releaseHeld`.
final class ScriptedTransport: DeliveryTransport, @unchecked Sendable {
    private let lock = NSLock()
    private var scripts: [String: [ProviderAnswer?]] = [:]
    private var held: [@Sendable (Result<ProviderAnswer, TransportFailure>) -> Void] = []
    private(set) var sent: [(token: String, request: OutboundRequest)] = []

    func script(_ token: String, _ answers: [ProviderAnswer?]) { lock.withLock { scripts[token] = answers } }

    func count(_ token: String) -> Int { lock.withLock { sent.filter { $0.token == token }.count } }

    func send(_ request: OutboundRequest, provider: Provider, timeout: Duration,
              completion: @escaping @Sendable (Result<ProviderAnswer, TransportFailure>) -> Void) {
        let token = Self.token(of: request)
        let answer: ProviderAnswer?? = lock.withLock {
            sent.append((token, request))
            guard var script = scripts[token], !script.isEmpty else { return .some(ProviderAnswer(status: 200)) }
            let next = script.count > 1 ? script.removeFirst() : script[0]
            scripts[token] = script
            if next == nil { held.append(completion) }
            return .some(next)
        }
        if case .some(.some(let reply)) = answer { completion(.success(reply)) }
    }

    func releaseHeld() {
        let pending = lock.withLock { defer { held.removeAll() }; return held }
        pending.forEach { $0(.success(ProviderAnswer(status: 200))) }
    }

    func shutdown() {
        let pending = lock.withLock { defer { held.removeAll() }; return held }
        pending.forEach { $0(.failure(.cancelled)) }
    }

    static func token(of request: OutboundRequest) -> String {
        if request.url.contains("/3/device/") { return String(request.url.split(separator: "/").last!) }
        let object = try? JSONSerialization.jsonObject(with: Data(request.body)) as? [String: Any]
        return ((object?["message"] as? [String: Any])?["token"] as? String) ?? request.url
    }
}

/// Credentials that are always ready and renew on refusal as the real ones do.
final class FakeCredentials: ProviderCredentials, @unchecked Sendable {
    private let lock = NSLock()
    private var gen = 1
    private var renewedAfterRefusal = -1
    var generation: Int { lock.withLock { gen } }
    func prepare(now: Date) -> Bool { true }
    func current() -> String? { "access-\(generation)" }
    func accepted(generation: Int) {
        lock.withLock { if renewedAfterRefusal == generation { renewedAfterRefusal = -1 } }
    }
    func refused(generation refused: Int, now: Date) -> CredentialRenewal {
        lock.withLock {
            if refused < gen { return .alreadyRenewed }
            if renewedAfterRefusal == gen { return .gaveUp }
            gen += 1
            renewedAfterRefusal = gen
            return .renewed
        }
    }
}
