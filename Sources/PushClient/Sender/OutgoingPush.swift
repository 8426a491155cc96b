import PushProtocol

/// One push as any chat server sends it: topics, the payload bytes to seal as they are (or none),
/// and the delivery options of PROTOCOL §4. The any chat helpers of `PushSender` build these too;
/// `NotifyPlanner` is the one place that signs, seals and shapes them into requests.
///
/// ```swift
/// // a ring, then the clear that withdraws it if it is still queued
/// sender.send(OutgoingPush(.notify(.call), topics: ["user/mary"], payload: ring, groupId: "call/k-55", ttl: 45),
///             in: space)
/// sender.send(OutgoingPush(.notify(.clear), topics: ["user/mary"], payload: ended, groupId: "call/k-55"), in: space)
/// ```
public struct OutgoingPush: Sendable, Equatable {
    /// Which route carries the push, and so who receives it.
    public enum Route: Sendable, Equatable {
        /// `POST /v1/notify` with this kind: every account subscribed to one of the topics, the
        /// caller excepted.
        case notify(NotifyKind)
        /// `POST /v1/notify/silent`: the caller's own devices (only topics equal to the caller's
        /// account id count), always silent; `skipDevice`, the sending device, gets nothing.
        case ownDevices(skipDevice: String?)
    }

    public var route: Route
    /// Topic strings of the space (PROTOCOL §3.4), signed with its push key when sent.
    public var topics: [String]
    /// The plaintext, sealed byte for byte with the space's payload key (no envelope is added);
    /// nil sends a content-free wake (the device gets only `x-any-type`, `x-any-group-id`, `x-any-id`).
    public var payload: [UInt8]?
    /// The collapse and replace key, 1–64 printable ASCII.
    public var groupId: String?
    /// Seconds, 1–2,419,200; nil takes the kind's default (PROTOCOL §4.1).
    public var ttl: Int?
    /// Withdraw this caller's still-undelivered pushes of `groupId` to the same devices; nil takes
    /// the kind's default (only `clear` replaces). Needs `groupId`.
    public var replaces: Bool?

    public init(_ route: Route = .notify(.message), topics: [String], payload: [UInt8]? = nil, groupId: String? = nil,
                ttl: Int? = nil, replaces: Bool? = nil) {
        self.route = route
        self.topics = topics
        self.payload = payload
        self.groupId = groupId
        self.ttl = ttl
        self.replaces = replaces
    }

    /// The request path of `route`.
    var path: String {
        switch route {
        case .notify: return "/v1/notify"
        case .ownDevices: return "/v1/notify/silent"
        }
    }

    /// The kind name for logs and counters.
    var kindName: String {
        switch route {
        case .notify(let kind): return kind.rawValue
        case .ownDevices: return "own_devices"
        }
    }
}
