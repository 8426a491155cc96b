import Foundation

/// A provider's health as `/readyz` and the status page name it (PROTOCOL §3.3): set by the
/// engine's lanes, shown by the doors; a string only when encoded.
package enum ProviderHealthState: String, Sendable, Codable, CaseIterable {
    case healthy
    /// Credentials refused after one renewal, or none could be minted.
    case credentialsRefused = "credentials_refused"
    /// The provider refused our configuration (FCM `THIRD_PARTY_AUTH_ERROR`, APNs topic …).
    case misconfigured
}

/// How one try of a delivery ended, as `pushnode_deliveries_total{outcome}`, the status page's
/// per-minute chart and its recent outcomes count it (PROTOCOL §3.3); a string only when encoded.
package enum TryOutcome: String, Sendable, Codable, CaseIterable {
    case delivered, retried, dead, rejected, expired
    /// A claimed row whose registration was gone: dropped unsent.
    case orphaned
}

/// One finished try as the status page's recent outcomes show it: values that identify a try
/// without exposing anyone — the notification id's first `notificationPrefix` characters, never
/// a token, endpoint, registration id or account.
package struct FinishedTry: Sendable, Equatable, Encodable {
    /// How many characters of a notification id a finished try keeps.
    package static let notificationPrefix = 8

    package var at: Date
    package var provider: String
    package var kind: String
    package var outcome: TryOutcome
    /// The §6 reason code, when the try had one.
    package var reason: String?
    /// The first `notificationPrefix` characters of the Notify id (cut here, the one place).
    package var notification: String

    package init(at: Date, provider: String, kind: String, outcome: TryOutcome, reason: String?, notification: String) {
        self.at = at
        self.provider = provider
        self.kind = kind
        self.outcome = outcome
        self.reason = reason
        self.notification = String(notification.prefix(Self.notificationPrefix))
    }
}
