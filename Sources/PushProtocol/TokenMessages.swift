import PushCrypto

/// `POST /v1/tokens`: register (or replace) a device token.
public struct SetTokenRequest: Sendable, Equatable, Codable {
    public var deviceId: String
    public var platform: Platform
    /// FCM token, hex APNs/PushKit token, or the Web Push endpoint URL.
    public var token: String
    /// Web Push only: the 65-byte uncompressed P-256 point (base64url on the wire).
    public var p256dh: [UInt8]?
    /// Web Push only: the 16-byte auth secret (base64url on the wire).
    public var auth: [UInt8]?
    /// Absent means `default`.
    public var appId: String?
    /// `production`/`development` for `apns` and `apns_voip`; absent or empty for the others.
    public var environment: String?

    public init(deviceId: String, platform: Platform, token: String, p256dh: [UInt8]? = nil, auth: [UInt8]? = nil,
                appId: String? = nil, environment: String? = nil) {
        self.deviceId = deviceId
        self.platform = platform
        self.token = token
        self.p256dh = p256dh
        self.auth = auth
        self.appId = appId
        self.environment = environment
    }

    enum CodingKeys: String, CodingKey { case deviceId, platform, token, p256dh, auth, appId, environment }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        deviceId = try c.decode(String.self, forKey: .deviceId)
        platform = try c.decode(Platform.self, forKey: .platform)
        token = try c.decode(String.self, forKey: .token)
        p256dh = try c.decodeBase64URLIfPresent(forKey: .p256dh)
        auth = try c.decodeBase64URLIfPresent(forKey: .auth)
        appId = try c.decodeIfPresent(String.self, forKey: .appId)
        environment = try c.decodeIfPresent(String.self, forKey: .environment)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(deviceId, forKey: .deviceId)
        try c.encode(platform, forKey: .platform)
        try c.encode(token, forKey: .token)
        try c.encodeIfPresent(p256dh.map { Base64.encodeURL($0) }, forKey: .p256dh)
        try c.encodeIfPresent(auth.map { Base64.encodeURL($0) }, forKey: .auth)
        try c.encodeIfPresent(appId, forKey: .appId)
        try c.encodeIfPresent(environment, forKey: .environment)
    }
}

public struct SetTokenResponse: Sendable, Equatable, Codable {
    public var registrationId: String
    public init(registrationId: String) { self.registrationId = registrationId }
}

/// `GET /v1/tokens`: the caller's registrations, never their tokens or keys.
public struct ListTokensResponse: Sendable, Equatable, Codable {
    public var registrations: [RegistrationSummary]
    public init(registrations: [RegistrationSummary]) { self.registrations = registrations }
}

/// One registration as `GET /v1/tokens` shows it. Times are unix seconds (Spec/openapi.yaml).
public struct RegistrationSummary: Sendable, Equatable, Codable {
    public var registrationId: String
    public var deviceId: String
    public var platform: Platform
    public var appId: String
    public var environment: String
    public var createdAt: Int64
    public var updatedAt: Int64
    /// RFC 3339: when a push was last delivered to it; absent before the first.
    public var lastDeliveryAt: String?
    /// How its last finished try ended (`delivered`, `retrying`, `rejected`, `expired`); absent
    /// before the first.
    public var lastOutcome: String?

    public init(registrationId: String, deviceId: String, platform: Platform, appId: String, environment: String,
                createdAt: Int64, updatedAt: Int64, lastDeliveryAt: String? = nil, lastOutcome: String? = nil) {
        self.registrationId = registrationId
        self.deviceId = deviceId
        self.platform = platform
        self.appId = appId
        self.environment = environment
        self.createdAt = createdAt
        self.updatedAt = updatedAt
        self.lastDeliveryAt = lastDeliveryAt
        self.lastOutcome = lastOutcome
    }
}

/// `POST /v1/tokens/revoke`: `{"deviceId"}` or `{"token", "platform"}`.
public struct RevokeTokenRequest: Sendable, Equatable, Codable {
    public enum Target: Sendable, Equatable {
        /// Every registration of this device of the caller.
        case device(String)
        /// The caller's registrations of this token on this platform (any appId or environment).
        case token(String, Platform)
    }

    public var target: Target

    public init(_ target: Target) { self.target = target }

    enum CodingKeys: String, CodingKey { case deviceId, token, platform }

    /// `deviceId` wins when both forms are present.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        if let deviceId = try c.decodeIfPresent(String.self, forKey: .deviceId) {
            target = .device(deviceId)
            return
        }
        let token = try c.decodeIfPresent(String.self, forKey: .token)
        let platform = try c.decodeIfPresent(Platform.self, forKey: .platform)
        switch (token, platform) {
        case let (token?, platform?): target = .token(token, platform)
        case (_?, nil): throw APIError.missing(FieldPath.of(CodingKeys.platform, in: c))
        case (nil, _?): throw APIError.missing(FieldPath.of(CodingKeys.token, in: c))
        case (nil, nil): throw APIError.missing(FieldPath.of(CodingKeys.deviceId, in: c))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        switch target {
        case .device(let deviceId):
            try c.encode(deviceId, forKey: .deviceId)
        case .token(let token, let platform):
            try c.encode(token, forKey: .token)
            try c.encode(platform, forKey: .platform)
        }
    }
}

/// `{"success": true}`.
public struct SuccessResponse: Sendable, Equatable, Codable {
    public var success: Bool
    public init(success: Bool = true) { self.success = success }
}

/// `{}`.
public struct EmptyResponse: Sendable, Equatable, Codable {
    public init() {}
}
