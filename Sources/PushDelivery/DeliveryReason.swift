/// Why a delivery ended as it did: a stable code for metrics and logs, plus the provider's
/// own word for it (`UNREGISTERED`, `BadDeviceToken`, an HTTP status …) when there is one.
///
/// Never carries a token, an endpoint URL or a provider's free-text message (FCM echoes
/// field values, tokens included, in some of its messages).
package struct DeliveryReason: Sendable, Equatable, CustomStringConvertible {
    package var code: Code
    /// The provider's reason string or status, for logs; nil when there is none.
    package var detail: String?

    package init(_ code: Code, detail: String? = nil) {
        self.code = code
        self.detail = detail
    }

    package var description: String { detail.map { "\(code.rawValue) (\($0))" } ?? code.rawValue }

    /// A stable reason code, `<source>.<reason>` in snake case.
    package struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package init(stringLiteral value: String) { rawValue = value }

        // No HTTP answer (TransportFailure).
        package static let transportConnectFailed: Code = "transport.connect_failed"
        package static let transportTimedOut: Code = "transport.timed_out"
        package static let transportConnectionReset: Code = "transport.connection_reset"
        package static let transportTLS: Code = "transport.tls"
        package static let transportTooLarge: Code = "transport.too_large"
        package static let transportInvalidURL: Code = "transport.invalid_url"
        package static let transportForbiddenAddress: Code = "transport.forbidden_address"
        package static let transportCancelled: Code = "transport.cancelled"
        package static let transportOther: Code = "transport.other"

        // No request could be built (GatewayError).
        package static let invalidToken: Code = "gateway.invalid_token"
        package static let invalidKeys: Code = "gateway.invalid_keys"
        package static let notRoutable: Code = "gateway.not_routable"
        package static let payloadTooLarge: Code = "gateway.payload_too_large"
        package static let encryptionFailed: Code = "gateway.encryption_failed"
        package static let credentialsUnavailable: Code = "gateway.credentials_unavailable"
        package static let unsupportedKind: Code = "gateway.unsupported_kind"
        package static let appUnconfigured: Code = "gateway.app_unconfigured"

        // The retry policy gave up.
        package static let attemptsExhausted: Code = "delivery.attempts_exhausted"

        // FCM HTTP v1.
        package static let fcmUnregistered: Code = "fcm.unregistered"
        package static let fcmInvalidToken: Code = "fcm.invalid_token"
        package static let fcmSenderIdMismatch: Code = "fcm.sender_id_mismatch"
        package static let fcmInvalidArgument: Code = "fcm.invalid_argument"
        package static let fcmThirdPartyAuth: Code = "fcm.third_party_auth"
        package static let fcmUnauthenticated: Code = "fcm.unauthenticated"
        package static let fcmPermissionDenied: Code = "fcm.permission_denied"
        package static let fcmNotFound: Code = "fcm.not_found"
        package static let fcmQuotaExceeded: Code = "fcm.quota_exceeded"
        package static let fcmUnavailable: Code = "fcm.unavailable"
        package static let fcmInternal: Code = "fcm.internal"
        package static let fcmServerError: Code = "fcm.server_error"
        package static let fcmHTTPError: Code = "fcm.http_error"

        // APNs.
        package static let apnsUnregistered: Code = "apns.unregistered"
        package static let apnsBadDeviceToken: Code = "apns.bad_device_token"
        package static let apnsDeviceTokenNotForTopic: Code = "apns.device_token_not_for_topic"
        package static let apnsProviderToken: Code = "apns.provider_token"
        package static let apnsForbidden: Code = "apns.forbidden"
        package static let apnsTooManyRequests: Code = "apns.too_many_requests"
        package static let apnsServerError: Code = "apns.server_error"
        package static let apnsPayloadTooLarge: Code = "apns.payload_too_large"
        package static let apnsBadRequest: Code = "apns.bad_request"
        package static let apnsHTTPError: Code = "apns.http_error"

        // Web Push.
        package static let webpushGone: Code = "webpush.gone"
        package static let webpushPayloadTooLarge: Code = "webpush.payload_too_large"
        package static let webpushRateLimited: Code = "webpush.rate_limited"
        package static let webpushServerError: Code = "webpush.server_error"
        package static let webpushRefused: Code = "webpush.refused"
        package static let webpushHTTPError: Code = "webpush.http_error"

        // Huawei Push Kit, both APIs (HMS Core v1 for `huawei`, HarmonyOS v3 for `harmony`).
        package static let pushkitInvalidToken: Code = "pushkit.invalid_token"
        package static let pushkitInvalidRequest: Code = "pushkit.invalid_request"
        package static let pushkitPayloadTooLarge: Code = "pushkit.payload_too_large"
        package static let pushkitNoRight: Code = "pushkit.no_right"
        package static let pushkitCredentialRefused: Code = "pushkit.credential_refused"
        package static let pushkitPermissionDenied: Code = "pushkit.permission_denied"
        package static let pushkitNotFound: Code = "pushkit.not_found"
        package static let pushkitFlowControl: Code = "pushkit.flow_control"
        package static let pushkitInternal: Code = "pushkit.internal"
        package static let pushkitHTTPError: Code = "pushkit.http_error"
    }
}
