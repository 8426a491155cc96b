/// A token platform (PROTOCOL §3 "Token platforms").
public enum Platform: String, Sendable, Codable, CaseIterable, Hashable {
    /// FCM registration token of an Android app.
    case android
    /// FCM registration token of an iOS app (FCM with an `apns` block).
    case ios
    /// Hex APNs device token (alerts and background pushes).
    case apns
    /// Hex PushKit token (call rings only).
    case apnsVoip = "apns_voip"
    /// An RFC 8030 push endpoint URL (browsers, UnifiedPush).
    case webpush
    /// HMS Core Push Kit token of an Android app on a phone without Google services.
    case huawei
    /// HarmonyOS NEXT (HarmonyOS 5 and later) Push Kit token.
    case harmony

    /// The provider that delivers to this platform.
    public var provider: Provider {
        switch self {
        case .android, .ios: return .fcm
        case .apns, .apnsVoip: return .apns
        case .webpush: return .webpush
        case .huawei: return .huawei
        case .harmony: return .harmony
        }
    }
}

/// A delivery provider; its credentials switch its platforms on.
public enum Provider: String, Sendable, Codable, CaseIterable, Hashable {
    /// `huawei`: HMS Core Push Kit v1 (OAuth client credentials); `harmony`: HarmonyOS Push Kit
    /// v3 (service-account JWT).
    case fcm, apns, webpush, huawei, harmony

    public var platforms: [Platform] { Platform.allCases.filter { $0.provider == self } }
}
