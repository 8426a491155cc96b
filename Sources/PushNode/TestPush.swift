import Foundation
import HTTPClient
import PushConfig
import PushCrypto
import PushDelivery
import PushEngine
import PushProtocol
import PushSupport

/// One push to one registration through the configured gateways, outside the outbox: what
/// `pushnode send` runs so a self-hoster can check credentials.
package enum TestPush {
    /// What to send and where: the registration's address, the kind and its ttl in seconds.
    package struct Target: Sendable {
        package var address: DeliveryAddress
        package var kind: NotifyKind
        package var ttl: Int

        package init(address: DeliveryAddress, kind: NotifyKind = .message, ttl: Int = 60) {
            self.address = address
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
        /// The answer as the provider's gateway classifies it (`PushDelivery/Gateways/*+Classify.swift`):
        /// the one reading of a provider's words, shared with the outbox.
        package var classified: DeliveryOutcome

        /// `delivered`, `dead`, `rejected`, `transient`, `auth` or `expired`.
        package var outcome: String {
            switch classified {
            case .delivered: "delivered"
            case .dead: "dead"
            case .rejected: "rejected"
            case .transient: "transient"
            case .auth: "auth"
            case .expired: "expired"
            }
        }
        /// The §6 reason code of the classification.
        package var reason: DeliveryReason.Code? { classified.reason?.code }
        /// The provider's own word (APNs' `reason`, FCM's error status) or HTTP status.
        package var detail: String? { classified.reason?.detail }

        package var delivered: Bool { classified == .delivered }
    }

    package struct Failure: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    static let bodyLimit = 512

    /// Builds the gateways from `config`, mints credentials, sends, and classifies the answer.
    /// `probe`: Huawei Push Kit checks the request and delivers it to nobody (`check --live`).
    package static func send(_ target: Target, config: NodeConfig, probe: Bool = false) throws(Failure) -> Report {
        let provider = target.address.platform.provider
        guard config.enabledPlatforms.contains(target.address.platform) else {
            throw Failure(description: "platform \(target.address.platform.rawValue) has no credentials configured")
        }
        // The node's own VAPID key lives in dataDir (generated there on first start); the other
        // providers touch no file, so `check --live` (which sends through here) writes nothing.
        if target.address.platform == .webpush {
            try? FileManager.default.createDirectory(atPath: config.dataDir, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
        }
        let assembly: DeliveryAssembly
        do { assembly = try DeliveryAssembly(config: config, platforms: [target.address.platform], app: NodeConfig.App.defaultID, probe: probe) } catch {
            throw Failure(description: error.description)
        }
        defer { assembly.transport.shutdown() }
        guard let route = assembly.route(for: provider) else { throw Failure(description: "no gateway for \(provider.rawValue)") }
        let job = Self.oneOffJob(registrationId: "test", address: target.address, kind: target.kind, ttl: TimeInterval(target.ttl))
        let exchange = Self.exchange(job, route: route, transport: assembly.transport, timeout: .seconds(30))
        var result = Report(provider: provider, classified: exchange.outcome)
        result.status = exchange.answer?.status
        result.body = exchange.answer.map { shortened($0.body, hiding: target.address.token) }
        result.transportError = exchange.failure?.code.rawValue
        return result
    }

    /// UTF-8 text of the body without the token, at most `bodyLimit` characters.
    package static func shortened(_ body: [UInt8], hiding token: String) -> String {
        var text = String(decoding: body, as: UTF8.self)
        if !token.isEmpty { text = text.replacingOccurrences(of: token, with: "<token>") }
        return text.count > bodyLimit ? String(text.prefix(bodyLimit)) + "…" : text
    }
}
