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
/// The gateway is `CredentialedGateway<HuaweiGateway>`, its credential the cached OAuth access token.
///
/// - SeeAlso: Spec/providers.md "Huawei Push Kit", PROTOCOL §5.
package enum HuaweiGateway: PushKitProvider {
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

    package static let provider = Provider.huawei

    package static func appId(of configuration: Configuration) -> String { configuration.appId }

    package static func buildRequest(job: DeliveryJob, credential: String, configuration: Configuration,
                                    now: Date) throws(GatewayError) -> OutboundRequest {
        let (token, ttl) = try PushKit.target(of: job, platform: .huawei, now: now)
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
        return try PushKit.sendRequest(body: body, token: token, baseURL: configuration.baseURL, version: "v1",
                                       id: configuration.appId, credential: credential,
                                       contentType: "application/json; charset=utf-8")
    }
}
