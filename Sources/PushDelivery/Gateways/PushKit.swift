import Foundation
import PushCrypto
import PushProtocol

/// What the two Huawei gateways share — HMS Core Push Kit v1 (`HuaweiGateway`) and HarmonyOS
/// Push Kit v3 (`HarmonyGateway`): the body limit, the ttl range, the data string, the collapse
/// group and the request's URL and headers (Spec/providers.md "Huawei Push Kit").
enum PushKit {
    /// The largest message body Huawei takes, not counting the token (80300008).
    static let bodyLimit = 4096
    /// Huawei caches a message for at most 15 days.
    static let maxTTL = 1_296_000

    /// The data keys (PROTOCOL §5) as one JSON object in a string: v1 `message.data` and v3
    /// `extraData` are strings the app parses.
    static func dataString(for job: DeliveryJob) -> String {
        String(decoding: JSONValue.strings(DataKeys.pairs(for: job)).bytes, as: UTF8.self)
    }

    /// Huawei's offline cache groups are the integers 1–100 (one message kept per group), not
    /// strings: a group id is hashed into one (SHA-256, the first four bytes, mod 100, plus 1).
    /// Two groups may share a slot; then an offline device keeps only the newer of their messages.
    static func collapseGroup(_ groupId: String) -> Int {
        let digest = SHA256.hash(Array(groupId.utf8))
        let prefix = digest.prefix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        return Int(prefix % 100) + 1
    }

    /// The collapse group of a job, nil when its kind does not collapse or it has no group.
    static func collapseGroup(of job: DeliveryJob) -> Int? {
        guard job.kind.collapses, let group = job.groupId, !group.isEmpty else { return nil }
        return collapseGroup(group)
    }

    /// The device token of a job for `platform` and the whole seconds left, at most `maxTTL`;
    /// throws `unsupportedKind` for another platform, `invalidToken` for an empty token and
    /// `expired` under one second.
    static func target(of job: DeliveryJob, platform: Platform, now: Date) throws(GatewayError) -> (token: String, ttl: Int) {
        guard job.registration.platform == platform else { throw .unsupportedKind }
        let token = job.registration.token
        guard !token.isEmpty else { throw .invalidToken }
        let ttl = job.remainingTTL(at: now)
        guard ttl >= 1 else { throw .expired }
        return (token, min(ttl, maxTTL))
    }

    /// `POST {baseURL}/{version}/{id}/messages:send` of `body` (refused over Huawei's limit, the
    /// token not counting) with the bearer `credential`, its `contentType` and (v3) its `push-type`.
    static func sendRequest(body: [UInt8], token: String, baseURL: String, version: String, id: String,
                            credential: String, contentType: String, pushType: Int? = nil) throws(GatewayError) -> OutboundRequest {
        let size = body.count - token.utf8.count
        guard size <= bodyLimit else { throw .payloadTooLarge(size: size, limit: bodyLimit) }
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        let authorization = ("authorization", "Bearer \(credential)"), type = ("content-type", contentType)
        let headers = pushType.map { [authorization, type, ("push-type", String($0))] } ?? [authorization, type]
        return OutboundRequest(url: "\(base)/\(version)/\(id)/messages:send", headers: headers, body: body)
    }
}

/// Huawei v1 and HarmonyOS v3 as `CredentialedProvider`s: their answers read alike
/// (`PushKit.classify`), and flow control limits a whole app, so every delivery of the app waits
/// together (the backoff scope `<provider>/<app id>`).
package protocol PushKitProvider: CredentialedProvider {
    /// The app's id in AppGallery Connect: v1's `appId`, v3's `projectId`.
    static func appId(of configuration: Configuration) -> String
}

extension PushKitProvider {
    package static func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome { PushKit.classify(answer, now: now) }

    package static func backoffScope(for job: DeliveryJob, configuration: Configuration) -> String? {
        "\(provider.rawValue)/\(appId(of: configuration))"
    }
}
