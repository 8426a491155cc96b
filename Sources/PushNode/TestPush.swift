import Dispatch
import Foundation
import HTTPClient
import PushConfig
import PushCrypto
import PushDelivery
import PushProtocol
import PushSupport

/// One push to one registration through the configured gateways, outside the outbox: what
/// `pushnode send` runs so a self-hoster can check credentials.
package enum TestPush {
    package struct Target: Sendable {
        package var platform: Platform
        package var token: String
        package var p256dh: String?
        package var auth: String?
        package var environment: String
        package var kind: NotifyKind
        package var ttl: Int

        package init(platform: Platform, token: String, p256dh: String? = nil, auth: String? = nil,
                    environment: String = "", kind: NotifyKind = .message, ttl: Int = 60) {
            self.platform = platform
            self.token = token
            self.p256dh = p256dh
            self.auth = auth
            self.environment = environment
            self.kind = kind
            self.ttl = ttl
        }
    }

    package struct Report: Sendable {
        package var provider: Provider
        /// The provider's HTTP status; nil when no answer came (see `transportError`) or no
        /// request could be built.
        package var status: Int?
        /// The answer body, shortened, with the token cut out (FCM echoes it in some messages).
        package var body: String?
        package var transportError: String?
        /// `delivered`, `dead`, `rejected`, `transient`, `auth` or `expired`.
        package var outcome: String
        package var reason: String?
        package var detail: String?

        package var delivered: Bool { outcome == "delivered" }
    }

    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    static let bodyLimit = 512

    /// Builds the gateways from `config`, mints credentials, sends, and classifies the answer.
    package static func send(_ target: Target, config: NodeConfig) throws(Failure) -> Report {
        let provider = target.platform.provider
        guard config.enabledPlatforms.contains(target.platform) else {
            throw Failure(description: "platform \(target.platform.rawValue) has no credentials configured")
        }
        // The node's own VAPID key lives in dataDir (generated there on first start); the other
        // providers touch no file, so `check --live` (which sends through here) writes nothing.
        if target.platform == .webpush {
            try? FileManager.default.createDirectory(atPath: config.dataDir, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        let assembly: DeliveryAssembly
        do { assembly = try DeliveryAssembly(config: config, platforms: [target.platform]) } catch {
            throw Failure(description: error.description)
        }
        defer { assembly.transport.shutdown() }
        guard let route = assembly.route(for: provider) else { throw Failure(description: "no gateway for \(provider.rawValue)") }
        let now = Date()
        if let credentials = route.credentials, !credentials.prepare(now: now) {
            return Report(provider: provider, outcome: "auth", reason: DeliveryReason.Code.credentialsUnavailable.rawValue,
                          detail: "no credential could be minted (token endpoint or key)")
        }
        let job = DeliveryJob(
            outboxId: Int64.random(in: 1...Int64.max), notificationId: Hex.encode(SecureRandom.bytes(16)),
            registration: .init(registrationId: "test", platform: target.platform, token: target.token, p256dh: target.p256dh.flatMap { try? Base64.decodeURL($0) },
                                auth: target.auth.flatMap { try? Base64.decodeURL($0) }, environment: target.environment),
            kind: target.kind, message: nil, groupId: nil, createdAt: now,
            expiresAt: now.addingTimeInterval(TimeInterval(target.ttl)))
        let request: OutboundRequest
        do { request = try route.gateway.request(for: job, now: now) } catch {
            return report(provider, outcome: error.outcome)
        }
        let done = DispatchSemaphore(value: 0)
        let box = Protected<Result<ProviderAnswer, TransportFailure>?>(nil)
        assembly.transport.send(request, provider: provider, timeout: .seconds(30)) { result in
            box.withLock { $0 = result }
            done.signal()
        }
        done.wait()
        switch box.withLock({ $0 }) {
        case .success(let answer):
            var result = report(provider, outcome: route.gateway.classify(answer, now: Date()))
            result.status = answer.status
            result.body = shortened(answer.body, hiding: target.token)
            return result
        case .failure(let error):
            var result = report(provider, outcome: error.outcome)
            result.transportError = error.code.rawValue
            return result
        case nil:
            throw Failure(description: "no answer")
        }
    }

    package static func report(_ provider: Provider, outcome: DeliveryOutcome) -> Report {
        let name: String
        switch outcome {
        case .delivered: name = "delivered"
        case .dead: name = "dead"
        case .rejected: name = "rejected"
        case .transient: name = "transient"
        case .auth: name = "auth"
        case .expired: name = "expired"
        }
        return Report(provider: provider, outcome: name, reason: outcome.reason?.code.rawValue, detail: outcome.reason?.detail)
    }

    /// UTF-8 text of the body without the token, at most `bodyLimit` characters.
    package static func shortened(_ body: [UInt8], hiding token: String) -> String {
        var text = String(decoding: body, as: UTF8.self)
        if !token.isEmpty { text = text.replacingOccurrences(of: token, with: "<token>") }
        return text.count > bodyLimit ? String(text.prefix(bodyLimit)) + "…" : text
    }
}
