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

    /// The provider that delivers to this platform.
    public var provider: Provider {
        switch self {
        case .android, .ios: return .fcm
        case .apns, .apnsVoip: return .apns
        case .webpush: return .webpush
        }
    }
}

/// A delivery provider; its credentials switch its platforms on.
public enum Provider: String, Sendable, Codable, CaseIterable, Hashable {
    case fcm, apns, webpush

    public var platforms: [Platform] { Platform.allCases.filter { $0.provider == self } }
}
