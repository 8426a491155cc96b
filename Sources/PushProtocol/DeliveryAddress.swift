/// Where a registration's pushes go: the platform, the provider's token, the Web Push keys, the
/// app and the APNs environment (PROTOCOL §3). The service stores it for a valid
/// `POST /v1/tokens`, the store keeps it in a registration, and a gateway reads it from a job;
/// the registration's id is derived from it.
package struct DeliveryAddress: Sendable, Equatable {
    package var platform: Platform
    /// FCM registration token, hex APNs/Push Kit token, or the Web Push endpoint URL. A secret:
    /// never log it in full.
    package var token: String
    /// Web Push only: the subscriber's uncompressed P-256 point, raw bytes (the gateway encrypts
    /// with them, so they are never encoded on the way).
    package var p256dh: [UInt8]?
    /// Web Push only: the 16-byte auth secret.
    package var auth: [UInt8]?
    package var appId: String
    /// `production` or `development` for `apns`/`apns_voip`, empty for the rest.
    package var environment: String

    package init(platform: Platform, token: String, p256dh: [UInt8]? = nil, auth: [UInt8]? = nil,
                 appId: String = "default", environment: String = "") {
        self.platform = platform
        self.token = token
        self.p256dh = p256dh
        self.auth = auth
        self.appId = appId
        self.environment = environment
    }

    /// The registration this address makes: the same platform, appId, environment and token
    /// always make the same one (`RegistrationID`).
    package var registrationId: String {
        RegistrationID.make(platform: platform, appId: appId, environment: environment, token: token)
    }
}
