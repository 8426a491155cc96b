/// The deliveries of a notification by state (PROTOCOL §4.4), in total or for one provider.
public struct DeliveryCounts: Sendable, Equatable, Codable {
    /// In the outbox, never tried.
    public var queued: Int
    /// A try on the wire.
    public var inFlight: Int
    public var delivered: Int
    /// Waiting for a retry after a failed try.
    public var retrying: Int
    /// RFC 3339: when the earliest retry is due; absent without one.
    public var nextAttemptAt: String?
    public var expired: Int
    public var dead: Int
    public var rejected: Int
    /// Withdrawn by a replacing Notify before it was delivered.
    public var superseded: Int

    public init(queued: Int = 0, inFlight: Int = 0, delivered: Int = 0, retrying: Int = 0, nextAttemptAt: String? = nil,
                expired: Int = 0, dead: Int = 0, rejected: Int = 0, superseded: Int = 0) {
        self.queued = queued
        self.inFlight = inFlight
        self.delivered = delivered
        self.retrying = retrying
        self.nextAttemptAt = nextAttemptAt
        self.expired = expired
        self.dead = dead
        self.rejected = rejected
        self.superseded = superseded
    }
}

/// `GET /v1/notifications/{id}`: counts only, never a token or a recipient.
public struct NotificationStatusResponse: Sendable, Equatable, Codable {
    public var id: String
    /// RFC 3339: when the Notify was accepted.
    public var createdAt: String
    public var total: DeliveryCounts
    /// Per provider (`fcm`, `apns`, `webpush`) that has deliveries of it.
    public var providers: [String: DeliveryCounts]

    public init(id: String, createdAt: String, total: DeliveryCounts, providers: [String: DeliveryCounts]) {
        self.id = id
        self.createdAt = createdAt
        self.total = total
        self.providers = providers
    }
}
