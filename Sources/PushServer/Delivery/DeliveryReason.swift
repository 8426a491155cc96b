/// Why a delivery ended as it did: a stable code for metrics and logs, plus the provider's
/// own word for it (`UNREGISTERED`, `BadDeviceToken`, an HTTP status …) when there is one.
///
/// Never carries a token, an endpoint URL or a provider's free-text message (FCM echoes
/// field values, tokens included, in some of its messages).
public struct DeliveryReason: Sendable, Equatable, CustomStringConvertible {
    public var code: Code
    /// The provider's reason string or status, for logs; nil when there is none.
    public var detail: String?

    public init(_ code: Code, detail: String? = nil) {
        self.code = code
        self.detail = detail
    }

    public var description: String { detail.map { "\(code.rawValue) (\($0))" } ?? code.rawValue }

    /// A stable reason code, `<source>.<reason>` in snake case.
    public struct Code: RawRepresentable, Hashable, Sendable, ExpressibleByStringLiteral {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public init(stringLiteral value: String) { rawValue = value }

        // No HTTP answer (TransportFailure).
        public static let transportConnectFailed: Code = "transport.connect_failed"
        public static let transportTimedOut: Code = "transport.timed_out"
        public static let transportConnectionReset: Code = "transport.connection_reset"
        public static let transportTLS: Code = "transport.tls"
        public static let transportTooLarge: Code = "transport.too_large"
        public static let transportInvalidURL: Code = "transport.invalid_url"
        public static let transportCancelled: Code = "transport.cancelled"
        public static let transportOther: Code = "transport.other"

        // No request could be built (GatewayError).
        public static let invalidToken: Code = "gateway.invalid_token"
        public static let invalidKeys: Code = "gateway.invalid_keys"
        public static let notRoutable: Code = "gateway.not_routable"
        public static let payloadTooLarge: Code = "gateway.payload_too_large"
        public static let encryptionFailed: Code = "gateway.encryption_failed"
        public static let credentialsUnavailable: Code = "gateway.credentials_unavailable"
        public static let unsupportedKind: Code = "gateway.unsupported_kind"

        // The retry policy gave up.
        public static let attemptsExhausted: Code = "delivery.attempts_exhausted"

        // FCM HTTP v1.
        public static let fcmUnregistered: Code = "fcm.unregistered"
        public static let fcmInvalidToken: Code = "fcm.invalid_token"
        public static let fcmSenderIdMismatch: Code = "fcm.sender_id_mismatch"
        public static let fcmInvalidArgument: Code = "fcm.invalid_argument"
        public static let fcmThirdPartyAuth: Code = "fcm.third_party_auth"
        public static let fcmUnauthenticated: Code = "fcm.unauthenticated"
        public static let fcmPermissionDenied: Code = "fcm.permission_denied"
        public static let fcmNotFound: Code = "fcm.not_found"
        public static let fcmQuotaExceeded: Code = "fcm.quota_exceeded"
        public static let fcmUnavailable: Code = "fcm.unavailable"
        public static let fcmInternal: Code = "fcm.internal"
        public static let fcmServerError: Code = "fcm.server_error"
        public static let fcmHTTPError: Code = "fcm.http_error"

        // APNs.
        public static let apnsUnregistered: Code = "apns.unregistered"
        public static let apnsBadDeviceToken: Code = "apns.bad_device_token"
        public static let apnsDeviceTokenNotForTopic: Code = "apns.device_token_not_for_topic"
        public static let apnsProviderToken: Code = "apns.provider_token"
        public static let apnsForbidden: Code = "apns.forbidden"
        public static let apnsTooManyRequests: Code = "apns.too_many_requests"
        public static let apnsServerError: Code = "apns.server_error"
        public static let apnsPayloadTooLarge: Code = "apns.payload_too_large"
        public static let apnsBadRequest: Code = "apns.bad_request"
        public static let apnsHTTPError: Code = "apns.http_error"

        // Web Push.
        public static let webpushGone: Code = "webpush.gone"
        public static let webpushPayloadTooLarge: Code = "webpush.payload_too_large"
        public static let webpushRateLimited: Code = "webpush.rate_limited"
        public static let webpushServerError: Code = "webpush.server_error"
        public static let webpushRefused: Code = "webpush.refused"
        public static let webpushHTTPError: Code = "webpush.http_error"
    }
}
