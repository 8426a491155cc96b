import Foundation
import PushDelivery
import PushProtocol
import PushSupport

/// One finished try as the log tells it, to answer "why didn't Alice get her push?": the Notify's
/// id, the provider, the registration (the first 8 hex digits of its id, never the token or
/// endpoint), which try it was, how it ended and why, and when the next try is due.
///
/// A delivered push logs at `debug` (one line per delivery is too many for `info`; the
/// per-minute `DeliverySummary` counts them); a retry or a dead registration at `info`; a
/// rejection at `warn`; a rejection that shows the provider misconfigured at `error`.
struct DeliveryEvent: Sendable, Equatable {
    var provider: Provider
    /// The registration's app (logged when not `default`).
    var app: String
    var notificationId: String
    /// The first 8 hex digits of the registration id.
    var registration: String
    var kind: NotifyKind
    /// 1 for the first try.
    var attempt: Int
    var outcome: LaneStateMachine.Outcome
    var reason: DeliveryReason?
    /// When retried: the time the next try is due.
    var nextAttemptAt: Date?
    /// The provider's health when this try changed it (`misconfigured`).
    var health: ProviderHealthState?
    /// When the node accepted the Notify (ms precision, as stored): a delivered try's latency.
    var acceptedAt: Date

    /// How many hex digits of a registration id a log line shows.
    static let registrationPrefix = 8

    init(_ job: DeliveryJob, provider: Provider, outcome: LaneStateMachine.Outcome, reason: DeliveryReason? = nil,
         nextAttemptAt: Date? = nil, health: ProviderHealthState? = nil) {
        self.provider = provider
        app = LaneKey.app(of: job.registration.appId)
        notificationId = job.notificationId
        registration = String(job.registrationId.prefix(Self.registrationPrefix))
        kind = job.kind
        attempt = job.attempts + 1
        self.outcome = outcome
        self.reason = reason
        self.nextAttemptAt = nextAttemptAt
        self.health = health
        acceptedAt = job.createdAt
    }

    var level: LogLevel {
        switch outcome {
        case .delivered: .debug
        case .retried, .dead, .expired, .orphaned: .info
        case .rejected: health == nil ? .warn : .error
        }
    }

    var record: LogRecord {
        var fields: [LogField] = [
            LogField("provider", "\(provider.rawValue)"), LogField("notification", "\(notificationId)"),
            LogField("registration", "\(registration)"), LogField("kind", "\(kind.rawValue)"),
            LogField("attempt", .int(attempt)), LogField("outcome", "\(outcome.rawValue)"),
        ]
        if app != LaneKey.defaultApp { fields.insert(LogField("app", .string(app)), at: 1) }
        if let reason {
            fields.append(LogField("reason", "\(reason.code.rawValue)"))
            if let detail = reason.detail { fields.append(LogField("detail", "\(detail)")) }
        }
        if let nextAttemptAt { fields.append(LogField("next_attempt_at", .time(nextAttemptAt))) }
        if let health { fields.append(LogField("health", "\(health.rawValue)")) }
        return LogRecord(level, "delivery", fields)
    }
}
