import PushDelivery
import PushProtocol

/// The one table of known fixes: when a command fails for one of these reasons, `pushnode`
/// prints the error and then a `hint:` line saying what to change. Keyed by the node's API error
/// code (PROTOCOL §3.2) or by a delivery reason (PROTOCOL §6), plus the few situations a command
/// sees before any error (a VoIP registration, which only ever receives calls).
enum ErrorHints {
    /// The hint for a node's error `code`, nil when no fix is known. `platform`, when the command
    /// knows it, names the provider section for `platform.disabled`.
    static func forCode(_ code: APIError.Code?, platform: Platform? = nil) -> String? {
        guard let code else { return nil }
        if code == .platformDisabled, let platform { return disabled(platform.provider) }
        return byCode[code]
    }

    /// The hint for a delivery's reason (`pushnode send`), nil when no fix is known.
    static func forReason(_ reason: DeliveryReason.Code?) -> String? {
        reason.flatMap { byReason[$0] }
    }

    static let byCode: [APIError.Code: String] = [
        .tokenEndpointNotRoutable:
            "the endpoint's host is not publicly routable; for a staging or test push service set "
            + "webpush.allowPrivateEndpoints: true in the node's config (never in production)",
        .platformDisabled:
            "the node has no credentials for this platform: set fcm.credentialsPath (android, ios), "
            + "apns.keyPath, apns.keyId, apns.teamId and apns.topic (apns, apns_voip), huawei.appId and "
            + "huawei.clientSecret (huawei) or harmony.projectId and harmony.serviceAccountPath (harmony) in its config; "
            + "`pushnode check` lists the live platforms",
        .storageUnavailable:
            "the node's storage is failing (its log says event=storage_unavailable, /readyz storage_unavailable); "
            + "the request was not taken: retry the same command shortly",
        .authExpired:
            "this machine's clock and the node's differ by more than auth.clockSkew: check both clocks (NTP)",
        .rateLimited:
            "the account's rate limit is used up: wait the Retry-After seconds (the node's rateLimits.* set the rates)",
    ]

    static let byReason: [DeliveryReason.Code: String] = [
        .unsupportedKind: voipTakesOnlyCalls,
    ]

    /// apns_voip registrations receive kind `call` only (PROTOCOL §3.5).
    static let voipTakesOnlyCalls =
        "an apns_voip (PushKit) registration receives only calls: send with --kind call; "
        + "messages reach the device through its apns registration"

    private static func disabled(_ provider: Provider) -> String {
        switch provider {
        case .fcm: "FCM is not configured on the node: set fcm.credentialsPath (a service-account JSON) in its config"
        case .apns: "APNs is not configured on the node: set apns.keyPath, apns.keyId, apns.teamId and apns.topic in its config"
        case .huawei: "Huawei Push Kit is not configured on the node: set huawei.appId and huawei.clientSecret in its config"
        case .harmony:
            "HarmonyOS Push Kit is not configured on the node: set harmony.projectId and harmony.serviceAccountPath "
                + "(the service-account JSON from AppGallery Connect) in its config"
        case .webpush: byCode[.platformDisabled]!
        }
    }
}
