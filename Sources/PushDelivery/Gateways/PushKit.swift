import Foundation
import PushCrypto

/// What the two Huawei gateways share — HMS Core Push Kit v1 (`HuaweiGateway`) and HarmonyOS
/// Push Kit v3 (`HarmonyGateway`): the body limit, the ttl range, the data string, the collapse
/// group and the URL (Spec/providers.md "Huawei Push Kit").
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

    /// The whole seconds left, at most `maxTTL`; throws `expired` under one second.
    static func ttl(of job: DeliveryJob, now: Date) throws(GatewayError) -> Int {
        let ttl = job.remainingTTL(at: now)
        guard ttl >= 1 else { throw .expired }
        return min(ttl, maxTTL)
    }

    /// Refuses a body over Huawei's limit (the token does not count).
    static func checkSize(_ body: [UInt8], token: String) throws(GatewayError) {
        let size = body.count - token.utf8.count
        guard size <= bodyLimit else { throw .payloadTooLarge(size: size, limit: bodyLimit) }
    }

    /// `{baseURL}/{version}/{id}/messages:send`.
    static func sendURL(baseURL: String, version: String, id: String) -> String {
        var base = baseURL
        while base.hasSuffix("/") { base.removeLast() }
        return "\(base)/\(version)/\(id)/messages:send"
    }
}
