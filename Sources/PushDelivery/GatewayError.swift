/// Why a gateway could not build a request for a job. Each maps to the outcome the engine
/// records without sending anything.
package enum GatewayError: Error, Sendable, Equatable {
    /// Less than one whole second of ttl is left.
    case expired
    /// The token cannot address anything (not hex for APNs, not an http(s) URL with a host,
    /// or with userinfo, for Web Push): the registration is dead.
    case invalidToken
    /// Web Push `p256dh`/`auth` missing or not base64url: the registration is dead.
    case invalidKeys
    /// The Web Push endpoint's host is private, loopback, link-local or reserved now.
    case notRoutable
    /// The push would exceed the provider's limit (`size` bytes against `limit`).
    case payloadTooLarge(size: Int, limit: Int)
    /// The injected encryptor failed.
    case encryptionFailed
    /// No usable provider credential right now (access token not minted yet, signer failed).
    case credentialsUnavailable
    /// The platform never takes this kind (only calls go to `apns_voip`: iOS kills an app
    /// that receives a PushKit push without reporting a call).
    case unsupportedKind
    /// The registration's app has no credentials for this provider on this node (an app removed
    /// from `apps`, or stored by an older node): never sent with another app's credentials.
    case appUnconfigured

    /// The outcome to record for this failure.
    package var outcome: DeliveryOutcome {
        switch self {
        case .expired: return .expired
        case .invalidToken: return .dead(DeliveryReason(.invalidToken))
        case .invalidKeys: return .dead(DeliveryReason(.invalidKeys))
        case .notRoutable: return .rejected(DeliveryReason(.notRoutable))
        case .payloadTooLarge(let size, let limit):
            return .rejected(DeliveryReason(.payloadTooLarge, detail: "\(size)>\(limit)"))
        case .encryptionFailed: return .rejected(DeliveryReason(.encryptionFailed))
        case .credentialsUnavailable: return .auth(DeliveryReason(.credentialsUnavailable), .refresh)
        case .unsupportedKind: return .rejected(DeliveryReason(.unsupportedKind))
        case .appUnconfigured: return .rejected(DeliveryReason(.appUnconfigured))
        }
    }
}
