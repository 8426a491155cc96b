import Foundation
import PushProtocol

/// HarmonyOS NEXT Push Kit v3 for the `harmony` platform: request building and answer
/// classification, no I/O.
///
/// `POST {baseURL}/v3/{projectId}/messages:send` with the service account's PS256 JWT as the
/// bearer token, a `push-type` header per kind and `{"payload", "target": {"token": [token]},
/// "pushOptions": {"ttl", "collapseKey"}}`:
///
/// | kind | push-type | payload |
/// | --- | --- | --- |
/// | message | 0 (alert) | `notification`: category `IM`, the default alert, `clickAction` `{actionType: 0, data: <data keys>}` |
/// | silent, clear | 6 (background) | `extraData`: the data keys as a JSON string |
/// | call | 10 (in-app call, VoIP) | `extraData`: the data keys as a JSON string |
///
/// The gateway is `CredentialedGateway<HarmonyGateway>`, its credential the service account's PS256 JWT.
///
/// - SeeAlso: Spec/providers.md "Huawei Push Kit", PROTOCOL §5.
package enum HarmonyGateway: PushKitProvider {
    package struct Configuration: Sendable, Equatable {
        /// `harmony.projectId`: the AppGallery Connect project of the app.
        package var projectId: String
        /// `harmony.baseURL`, e.g. `https://push-api.cloud.huawei.com` or a mock's URL.
        package var baseURL: String
        /// `notifications.defaultAlert`, the text of a message's notification.
        package var defaultAlert: DefaultAlert
        /// `pushOptions.testMessage: true` (`check --live`): v3 has no validate-only send.
        package var testMessage: Bool

        package init(projectId: String, baseURL: String = "https://push-api.cloud.huawei.com",
                     defaultAlert: DefaultAlert = .standard, testMessage: Bool = false) {
            self.projectId = projectId
            self.baseURL = baseURL
            self.defaultAlert = defaultAlert
            self.testMessage = testMessage
        }
    }

    /// `push-type` values (Huawei's request header table).
    package enum PushType: Int, Sendable {
        case alert = 0
        case background = 6
        case voipCall = 10

        package init(_ kind: NotifyKind) {
            switch kind {
            case .message: self = .alert
            case .silent, .clear: self = .background
            case .call: self = .voipCall
            }
        }
    }

    package static let provider = Provider.harmony

    package static func appId(of configuration: Configuration) -> String { configuration.projectId }

    package static func buildRequest(job: DeliveryJob, credential: String, configuration: Configuration,
                                    now: Date) throws(GatewayError) -> OutboundRequest {
        let (token, ttl) = try PushKit.target(of: job, platform: .harmony, now: now)
        let type = PushType(job.kind)
        var options: [(String, JSONValue)] = []
        if configuration.testMessage { options.append(("testMessage", .bool(true))) }
        options.append(("ttl", .int(ttl)))
        // collapseKey applies to alert messages only (push-type 0 and 2).
        if type == .alert, let group = PushKit.collapseGroup(of: job) { options.append(("collapseKey", .int(group))) }
        let body = JSONValue.object([
            ("payload", payload(for: job, type: type, alert: configuration.defaultAlert)),
            ("target", .object([("token", .array([.string(token)]))])),
            ("pushOptions", .object(options)),
        ]).bytes
        return try PushKit.sendRequest(body: body, token: token, baseURL: configuration.baseURL, version: "v3",
                                       id: configuration.projectId, credential: credential,
                                       contentType: "application/json", pushType: type.rawValue)
    }

    private static func payload(for job: DeliveryJob, type: PushType, alert: DefaultAlert) -> JSONValue {
        guard type == .alert else { return .object([("extraData", .string(PushKit.dataString(for: job)))]) }
        return .object([("notification", .object([
            ("category", .string("IM")),
            ("title", .string(alert.title)),
            // Huawei requires a non-empty body; the default alert's is empty unless configured.
            ("body", .string(alert.body.isEmpty ? alert.title : alert.body)),
            ("clickAction", .object([("actionType", .int(0)), ("data", .strings(DataKeys.pairs(for: job)))])),
        ]))])
    }
}
