import Foundation
import PushProtocol

/// HMS Core Push Kit server API v1 for the `huawei` platform (Android phones without Google
/// services): request building and answer classification, no I/O.
///
/// `POST {baseURL}/v1/{appId}/messages:send` with the OAuth access token of the app's client
/// credentials and `{"validate_only", "message": {"data", "android", "token": [token]}}`. Every
/// kind is a data message (the app decrypts and shows it): `urgency` HIGH for message, call and
/// clear, NORMAL for silent; a call also `category: VOIP`, Huawei's class of its most urgent data
/// messages; `collapse_key` a group slot for messages; `ttl` the seconds left.
///
/// - SeeAlso: Spec/providers.md "Huawei Push Kit", PROTOCOL §5.
package struct HuaweiGateway: CredentialedGateway {
    package struct Configuration: Sendable, Equatable {
        /// `huawei.appId`: the app's id in AppGallery Connect (also the OAuth client id).
        package var appId: String
        /// `huawei.baseURL`, e.g. `https://push-api.cloud.huawei.com` or a mock's URL.
        package var baseURL: String
        /// `validate_only: true`: Huawei checks the request and delivers nothing (`check --live`).
        package var validateOnly: Bool

        package init(appId: String, baseURL: String = "https://push-api.cloud.huawei.com", validateOnly: Bool = false) {
            self.appId = appId
            self.baseURL = baseURL
            self.validateOnly = validateOnly
        }
    }

    package var configuration: Configuration
    /// The current cached OAuth access token; nil while none is available.
    package var credential: @Sendable () -> String?

    package init(configuration: Configuration, accessToken: @escaping @Sendable () -> String?) {
        self.configuration = configuration
        self.credential = accessToken
    }

    package var provider: Provider { .huawei }

    package func request(for job: DeliveryJob, credential: String, now: Date) throws(GatewayError) -> OutboundRequest {
        try Self.buildRequest(job: job, accessToken: credential, configuration: configuration, now: now)
    }

    package func classify(_ answer: ProviderAnswer, now: Date) -> DeliveryOutcome {
        PushKit.classify(answer, now: now)
    }

    /// Flow control limits the whole app: every delivery of this app waits together.
    package func backoffScope(for job: DeliveryJob) -> String? { "huawei/\(configuration.appId)" }

    package static func buildRequest(job: DeliveryJob, accessToken: String, configuration: Configuration,
                                    now: Date) throws(GatewayError) -> OutboundRequest {
        guard job.registration.platform == .huawei else { throw .unsupportedKind }
        let token = job.registration.token
        guard !token.isEmpty else { throw .invalidToken }
        let ttl = try PushKit.ttl(of: job, now: now)
        var android: [(String, JSONValue)] = []
        if let group = PushKit.collapseGroup(of: job) { android.append(("collapse_key", .int(group))) }
        android.append(("urgency", .string(job.kind.isUrgent ? "HIGH" : "NORMAL")))
        if job.kind == .call { android.append(("category", .string("VOIP"))) }
        android.append(("ttl", .string("\(ttl)s")))
        let body = JSONValue.object([
            ("validate_only", .bool(configuration.validateOnly)),
            ("message", .object([
                ("data", .string(PushKit.dataString(for: job))),
                ("android", .object(android)),
                ("token", .array([.string(token)])),
            ])),
        ]).bytes
        try PushKit.checkSize(body, token: token)
        return OutboundRequest(
            url: PushKit.sendURL(baseURL: configuration.baseURL, version: "v1", id: configuration.appId),
            headers: [
                ("authorization", "Bearer \(accessToken)"),
                ("content-type", "application/json; charset=utf-8"),
            ],
            body: body)
    }
}
