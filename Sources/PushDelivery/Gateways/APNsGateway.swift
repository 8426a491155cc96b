import Foundation
import PushProtocol
import PushSupport

/// Apple Push Notification service over HTTP/2 with token (JWT) auth, for the `apns` and
/// `apns_voip` platforms: request building and answer classification (`APNsGateway+Classify`),
/// no I/O. The gateway is `CredentialedGateway<APNsGateway>`, its credential the provider JWT
/// (ES256, reused ~50 min).
///
/// - SeeAlso: Spec/providers.md "APNs", PROTOCOL §5.
package enum APNsGateway: CredentialedProvider {
    /// Where requests go.
    package enum Host: Sendable, Equatable {
        /// Per registration: `development` → sandbox, anything else → production.
        case byEnvironment
        /// Every registration to the sandbox (`apns.useSandbox`).
        case sandbox
        /// `apns.host`, e.g. `https://127.0.0.1:9443` (a mock); `https://` is assumed when
        /// no scheme is given.
        case custom(String)
        /// Each environment its own host (`apns.host` and `apns.developmentHost`); nil = Apple's
        /// host of that environment.
        case perEnvironment(production: String?, development: String?)
    }

    package struct Configuration: Sendable, Equatable {
        /// The app's bundle id (`apns.topic`); PushKit pushes use it with `.voip` appended.
        package var topic: String
        package var host: Host
        package var defaultAlert: DefaultAlert

        package init(topic: String, host: Host = .byEnvironment, defaultAlert: DefaultAlert = .standard) {
            self.topic = topic
            self.host = host
            self.defaultAlert = defaultAlert
        }
    }

    package static let productionHost = "api.push.apple.com"
    package static let sandboxHost = "api.sandbox.push.apple.com"
    /// APNs' payload limits: alert and background pushes, VoIP pushes.
    package static let payloadLimit = 4096
    package static let voipPayloadLimit = 5120

    package static let provider = Provider.apns

    /// `POST https://<host>/3/device/<hex token>` with the headers and JSON of PROTOCOL §5:
    /// `aps` beside the data keys at the top level; VoIP carries the data keys only.
    package static func buildRequest(job: DeliveryJob, credential: String, configuration: Configuration,
                                    now: Date) throws(GatewayError) -> OutboundRequest {
        let voip = job.registration.platform == .apnsVoip
        guard job.registration.platform == .apns || voip else { throw .unsupportedKind }
        guard !voip || job.kind == .call else { throw .unsupportedKind }
        guard let deviceToken = normalizedDeviceToken(job.registration.token) else { throw .invalidToken }
        guard !job.isExpired(at: now) else { throw .expired }

        let body: [UInt8]
        let pushType: String
        let priority: Int
        if let matrix = job.matrix {
            // Spec/matrix.md "APNs": sygnal's payload; an alert push, priority from `prio`.
            guard !voip, let payload = MatrixAPNsPayload.payload(for: matrix) else { throw .unsupportedKind }
            (body, pushType, priority) = (payload.bytes, "alert", matrix.prio == .low ? 5 : 10)
        } else {
            let style = APNsPushStyle(job: job, defaultAlert: configuration.defaultAlert, voip: voip)
            let document = JSONValue.renderedObject(first: style.aps.map { [("aps", $0)] } ?? [], DataKeys.rendered(for: job).members)
            (body, pushType, priority) = (document.bytes, style.pushType, style.priority)
        }
        let limit = voip ? voipPayloadLimit : payloadLimit
        guard body.count <= limit else { throw .payloadTooLarge(size: body.count, limit: limit) }

        var headers: [(String, String)] = [
            ("authorization", "bearer \(credential)"),
            ("apns-topic", voip ? configuration.topic + ".voip" : configuration.topic),
            ("apns-push-type", pushType),
            ("apns-priority", String(priority)),
            ("apns-expiration", String(expiration(for: job))),
        ]
        if let collapse = APNsPushStyle.collapseId(for: job) { headers.append(("apns-collapse-id", collapse)) }
        headers.append(("apns-id", APNsRequestID.uuid(forOutboxId: job.outboxId)))
        return OutboundRequest(
            url: "\(baseURL(for: configuration.host, environment: job.registration.environment))/3/device/\(deviceToken)",
            headers: headers,
            body: body
        )
    }

    /// `https://host[:port]` without a trailing slash.
    package static func baseURL(for host: Host, environment: String) -> String {
        switch host {
        case .byEnvironment:
            return "https://" + (environment == "development" ? sandboxHost : productionHost)
        case .sandbox:
            return "https://" + sandboxHost
        case .custom(let value):
            var url = value.contains("://") ? value : "https://" + value
            while url.hasSuffix("/") { url.removeLast() }
            return url
        case .perEnvironment(let production, let development):
            let chosen = environment == "development" ? development : production
            return baseURL(for: chosen.map(Host.custom) ?? .byEnvironment, environment: environment)
        }
    }

    /// `apns-expiration`: the job's expiry in epoch seconds. Never 0, which would tell APNs to
    /// try once and drop the push if the device is offline, even with ttl left.
    static func expiration(for job: DeliveryJob) -> Int {
        Int(job.expiresAt.timeIntervalSince1970.rounded(.down))
    }

    /// Lowercase hex, or nil when the token is empty, odd-length or not hex.
    static func normalizedDeviceToken(_ token: String) -> String? {
        let lowered = token.lowercased()
        guard !lowered.isEmpty, lowered.utf8.count % 2 == 0,
              lowered.utf8.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }) else { return nil }
        return lowered
    }
}
