/// One public call of `PushSender`, queued as given; the worker plans, seals and sends it.
struct SendJob: Sendable {
    enum Work: Sendable {
        /// An any chat helper (`chatMessage`, `chatEdit`, `chatRead`, `callRing`).
        case chat(ChatCall)
        /// `send(_:in:)`: a push of the caller's own bytes.
        case push(OutgoingPush, signer: any TopicSigner, sealer: any PayloadSealer)
    }

    var work: Work
    /// Set once the job was planned again after the node refused its payload as too large.
    var replanned = false

    init(_ work: Work) { self.work = work }

    /// The kind for logs and counters: `message`, `edit`, `read`, `call`, or the push's kind.
    var kindName: String {
        switch work {
        case .chat(let call): return call.kind.rawValue
        case .push(let push, _, _): return push.kindName
        }
    }
}

/// An any chat helper's call: what `ChatPushes` turns into an `OutgoingPush` of any's vocabulary.
struct ChatCall: Sendable {
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
}

/// One request ready to go: its body bytes never change between tries.
struct PreparedRequest: Sendable {
    let path: String
    let body: [UInt8]
    let kindName: String
    var schedule: RetrySchedule
    /// The job, kept to plan again once after a `payload.too_large`; nil when that is not allowed.
    let replannable: SendJob?
}
