import Foundation
import PushCrypto
import PushProtocol
import PushSupport

/// Web Push (RFC 8030) with RFC 8291 encryption and VAPID (RFC 8292), for the `webpush`
/// platform: request building and answer classification (`WebPushGateway+Classify`), no I/O.
/// Encryption, VAPID signing and the private-address check are injected.
///
/// - SeeAlso: Spec/providers.md "Web Push", PROTOCOL §5.
package struct WebPushGateway: PushGateway {
    /// RFC 8291 §4: the most plaintext one 4096-byte record can hold.
    package static let plaintextLimit = 3993

    package var encryptor: any WebPushEncryptor
    package var authorizer: any VAPIDAuthorizer
    /// The private-address guard for the endpoint's host, re-checked at every send because DNS
    /// can change after registration. `webpush.allowPrivateEndpoints: true` binds `{ _ in true }`.
    package var isRoutable: @Sendable (String) -> Bool
    /// `webpush.allowPrivateEndpoints`: also admits `http://` endpoints.
    package var allowsPlainHTTP: Bool

    package init(encryptor: any WebPushEncryptor, authorizer: any VAPIDAuthorizer,
                isRoutable: @escaping @Sendable (String) -> Bool, allowsPlainHTTP: Bool = false) {
        self.encryptor = encryptor
        self.authorizer = authorizer
        self.isRoutable = isRoutable
        self.allowsPlainHTTP = allowsPlainHTTP
    }

    package var provider: Provider { .webpush }

    package func request(for job: DeliveryJob, now: Date) throws(GatewayError) -> OutboundRequest {
        try Self.buildRequest(job: job, encryptor: encryptor, authorizer: authorizer, isRoutable: isRoutable,
                              allowsPlainHTTP: allowsPlainHTTP, now: now)
    }

    package func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome {
        Self.classify(answer, now: now)
    }

    /// The origin a job's endpoint belongs to: the key for origin-wide backoff after a 429.
    package static func origin(of job: DeliveryJob) -> EndpointOrigin? {
        try? EndpointOrigin(endpoint: job.registration.token)
    }

    /// The endpoint's serialized origin: a 429 holds every delivery to the same push service.
    package func backoffScope(for job: DeliveryJob) -> String? {
        Self.origin(of: job)?.description
    }

    /// Every endpoint is the subscriber's (and so anyone's) choice: its origin is shared fairly.
    package func registrantOrigin(for job: DeliveryJob) -> String? {
        Self.origin(of: job)?.description
    }

    /// The plaintext of the record: the JSON object of the data keys (PROTOCOL §5).
    package static func plaintext(for job: DeliveryJob) -> [UInt8] {
        JSONValue.renderedObject(DataKeys.rendered(for: job).members).bytes
    }

    /// `POST <endpoint>` with one `aes128gcm` record and the headers `ttl`, `urgency`
    /// (`high` for message and call, `low` for silent), `topic` (messages with a groupId,
    /// `WebPushTopic`), `content-encoding`, `content-type` and the VAPID `authorization`.
    package static func buildRequest(job: DeliveryJob, encryptor: any WebPushEncryptor, authorizer: any VAPIDAuthorizer,
                                    isRoutable: (String) -> Bool, allowsPlainHTTP: Bool = false,
                                    now: Date) throws(GatewayError) -> OutboundRequest {
        guard job.registration.platform == .webpush else { throw .unsupportedKind }
        let ttl = job.remainingTTL(at: now)
        guard ttl >= 1 else { throw .expired }
        let origin = try EndpointOrigin(endpoint: job.registration.token)
        guard origin.scheme == "https" || allowsPlainHTTP, isRoutable(origin.host) else { throw .notRoutable }
        if let matrix = job.matrix { return try unifiedPushRequest(job: job, push: matrix, ttl: ttl) }
        guard let p256dh = job.registration.p256dh, let auth = job.registration.auth,
              p256dh.count == 65, p256dh[0] == 0x04, auth.count == 16 else { throw .invalidKeys }

        let plaintext = plaintext(for: job)
        guard plaintext.count <= plaintextLimit else {
            throw .payloadTooLarge(size: plaintext.count, limit: plaintextLimit)
        }
        let body: [UInt8]
        do { body = try encryptor.encrypt(plaintext, p256dh: p256dh, auth: auth) } catch { throw .encryptionFailed }
        let authorization: String
        do { authorization = try authorizer.authorization(forOrigin: origin.description, now: now) } catch {
            throw .credentialsUnavailable
        }

        var headers: [(String, String)] = [
            ("ttl", String(ttl)),
            ("urgency", job.kind.isUrgent ? "high" : "low"),
        ]
        if job.kind.collapses, let group = job.groupId, !group.isEmpty {
            headers.append(("topic", WebPushTopic.value(forGroupId: group)))
        }
        headers += [
            ("content-encoding", "aes128gcm"),
            ("content-type", "application/octet-stream"),
            ("authorization", authorization),
        ]
        return OutboundRequest(url: job.registration.token, headers: headers, body: body)
    }

    /// A Matrix push to a UnifiedPush endpoint (Spec/matrix.md "UnifiedPush"): the Push Gateway
    /// JSON in the clear, as the UnifiedPush Matrix gateways post it — no RFC 8291 record (the
    /// pusher has no keys) and no VAPID (the endpoint asks for none).
    static func unifiedPushRequest(job: DeliveryJob, push: MatrixPush, ttl: Int) throws(GatewayError) -> OutboundRequest {
        let body = MatrixUnifiedPushBody.body(for: push, pushkey: job.registration.token)
        // UnifiedPush distributors take 4096-byte messages.
        guard body.count <= 4096 else { throw .payloadTooLarge(size: body.count, limit: 4096) }
        return OutboundRequest(url: job.registration.token, headers: [
            ("ttl", String(ttl)),
            ("urgency", push.prio == .low ? "normal" : "high"),
            ("content-type", "application/json"),
        ], body: body)
    }
}
