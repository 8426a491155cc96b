/// One public call of `PushSender`, queued as given; the worker plans, seals and sends it.
struct SendJob: Sendable {
    enum Kind: String, Sendable {
        case message, edit, read, call
    }

    var kind: Kind
    var space: PushSpace
    var chat: PushChat
    var message: OutgoingMessage?
    /// Mentions (message), newly added mentions (edit) or invitees (call).
    var identities: [String]
    /// The device to skip (read).
    var skipDevice: String?
    /// Seconds (call: the ring window).
    var ttl: Int?
    /// Set once the job was planned again after the node refused its payload as too large.
    var replanned = false
}

/// One request ready to go: its body bytes never change between tries.
struct PreparedRequest: Sendable {
    let path: String
    let body: [UInt8]
    let kind: SendJob.Kind
    var schedule: RetrySchedule
    /// The job, kept to plan again once after a `payload.too_large`; nil when that is not allowed.
    let replannable: SendJob?
}
