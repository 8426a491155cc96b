/// The operations of `PushService`, as both doors name them: the HTTP route table and the any-sync
/// rpc names each point at one. An operation's rate class is written here and nowhere else.
package enum ServiceOperation: String, Sendable, CaseIterable {
    case setToken, listTokens, revokeToken, testToken
    case createSpace, removeSpace
    case subscribeAll, subscribe, unsubscribe, subscriptions
    case notify, notifySilent
    case notificationStatus

    /// The per-account budget a call draws from (PROTOCOL §7 `rateLimits.*`), shared by both doors.
    package var rateClass: RateClass {
        switch self {
        case .notify, .notifySilent: return .notify
        case .setToken, .listTokens, .revokeToken, .testToken, .createSpace, .removeSpace, .subscribeAll, .subscribe, .unsubscribe,
             .subscriptions, .notificationStatus:
            return .registration
        }
    }
}
