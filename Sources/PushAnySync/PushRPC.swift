import PushService

/// The rpcs of `pushproto.Push` (Spec/anysync-wire.md §9) and the service operation each one is; the
/// operation gives its rate class.
enum PushRPC: String {
    case setToken = "SetToken"
    case revokeToken = "RevokeToken"
    case createSpace = "CreateSpace"
    case removeSpace = "RemoveSpace"
    case subscriptions = "Subscriptions"
    case subscribe = "Subscribe"
    case unsubscribe = "Unsubscribe"
    case subscribeAll = "SubscribeAll"
    case notify = "Notify"
    case notifySilent = "NotifySilent"

    /// The DRPC path prefix of the service.
    static let prefix = "/pushproto.Push/"

    /// The rpc of a DRPC path, nil for one outside `pushproto.Push`.
    init?(path: String) {
        guard path.hasPrefix(Self.prefix) else { return nil }
        self.init(rawValue: String(path.dropFirst(Self.prefix.count)))
    }

    var operation: ServiceOperation {
        switch self {
        case .setToken: return .setToken
        case .revokeToken: return .revokeToken
        case .createSpace: return .createSpace
        case .removeSpace: return .removeSpace
        case .subscriptions: return .subscriptions
        case .subscribe: return .subscribe
        case .unsubscribe: return .unsubscribe
        case .subscribeAll: return .subscribeAll
        case .notify: return .notify
        case .notifySilent: return .notifySilent
        }
    }
}
