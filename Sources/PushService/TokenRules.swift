import Foundation
import PushCrypto
import PushProtocol

/// The platform forms of `POST /v1/tokens` (PROTOCOL §3 "Token platforms" and "Validation"),
/// turning a request into the values a registration stores.
struct TokenRules: Sendable {
    static let defaultApp = "default"
    /// Each configured app's platforms with credentials, `default` among them.
    var appPlatforms: [String: Set<Platform>]
    var endpointPolicy: WebPushEndpointPolicy

    /// What a valid request registers: the token normalized, `appId` and `environment` defaulted.
    func normalize(_ request: SetTokenRequest, admittingDisabledPlatform: Bool = false) throws(ServiceError) -> DeliveryAddress {
        try Self.checkDeviceId(request.deviceId)
        try Self.checkText(request.token, field: "token", maxLength: 4096)
        let appId = request.appId ?? Self.defaultApp
        try Self.checkText(appId, field: "appId", maxLength: 128)
        guard let platforms = appPlatforms[appId] else {
            throw .refused(.appUnknown, "appId names no app this node is configured for", field: "appId")
        }
        guard admittingDisabledPlatform || platforms.contains(request.platform) else {
            let whose = appId == Self.defaultApp ? "on this node" : "for this app"
            throw .refused(.platformDisabled, "platform \(request.platform.rawValue) is not enabled \(whose)", field: "platform")
        }
        let (p256dh, auth) = try keys(of: request)
        let environment = try self.environment(of: request)
        var token = request.token
        switch request.platform {
        case .apns, .apnsVoip:
            token = token.lowercased()
            guard token.utf8.count % 2 == 0, token.utf8.allSatisfy(Self.isHexDigit) else {
                throw .invalid("token", "an APNs token is hex")
            }
        case .webpush:
            try endpointPolicy.check(token)
        case .android, .ios, .huawei, .harmony:
            break
        }
        return DeliveryAddress(platform: request.platform, token: token, p256dh: p256dh, auth: auth, appId: appId,
                               environment: environment)
    }

    /// Keys only with `webpush`, and there both.
    private func keys(of request: SetTokenRequest) throws(ServiceError) -> ([UInt8]?, [UInt8]?) {
        guard request.platform == .webpush else {
            if request.p256dh != nil { throw .invalid("p256dh", "p256dh is only for webpush") }
            if request.auth != nil { throw .invalid("auth", "auth is only for webpush") }
            return (nil, nil)
        }
        guard let p256dh = request.p256dh else { throw .missing("p256dh") }
        guard let auth = request.auth else { throw .missing("auth") }
        guard P256PointCheck.isValidUncompressedPoint(p256dh) else {
            throw .invalid("p256dh", "p256dh must be a 65-byte uncompressed P-256 point on the curve")
        }
        guard auth.count == 16 else { throw .invalid("auth", "auth must be 16 bytes") }
        return (p256dh, auth)
    }

    /// `production` (default) or `development` for APNs platforms; empty for the others.
    private func environment(of request: SetTokenRequest) throws(ServiceError) -> String {
        let given = request.environment ?? ""
        switch request.platform {
        case .apns, .apnsVoip:
            if given.isEmpty { return "production" }
            guard given == "production" || given == "development" else {
                throw .invalid("environment", "environment must be production or development")
            }
            return given
        case .android, .ios, .webpush, .huawei, .harmony:
            guard given.isEmpty else {
                throw .invalid("environment", "environment is only for apns and apns_voip")
            }
            return ""
        }
    }

    /// A `deviceId` (PROTOCOL §3): 1–128 characters, no control characters. The one rule for
    /// registration and for the device a silent Notify skips.
    static func checkDeviceId(_ deviceId: String) throws(ServiceError) {
        try checkText(deviceId, field: "deviceId", maxLength: 128)
    }

    private static func checkText(_ value: String, field: String, maxLength: Int) throws(ServiceError) {
        guard (1...maxLength).contains(value.count) else {
            throw .invalid(field, "\(field) must be 1–\(maxLength) characters")
        }
        guard !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw .invalid(field, "\(field) must not contain control characters")
        }
    }

    private static func isHexDigit(_ c: UInt8) -> Bool {
        (c >= 0x30 && c <= 0x39) || (c >= 0x61 && c <= 0x66)
    }
}
