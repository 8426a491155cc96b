import PushProtocol

/// One entry of `matrix.apps`: which Matrix pusher `app_id`s go to which of the node's apps, on
/// which platform (PROTOCOL §10 "Matrix Push Gateway door").
package struct MatrixAppRoute: Sendable, Equatable {
    /// The platforms a Matrix pusher can name: FCM for Android, APNs, and UnifiedPush endpoints.
    package static let platforms: [Platform] = [.android, .apns, .webpush]

    /// An `app_id`, or a prefix of one followed by `*`.
    package var appId: String
    /// The node's app (`default` or an `apps` entry id) whose credentials send the push.
    package var app: String
    package var platform: Platform
    /// `production` or `development` for `apns` (empty: production); empty for the others.
    package var environment: String

    package init(appId: String, app: String, platform: Platform, environment: String = "") {
        self.appId = appId
        self.app = app
        self.platform = platform
        self.environment = environment
    }

    /// Whether a pusher's `app_id` is this entry's: equal, or starting with the part before a
    /// trailing `*`.
    package func matches(_ pusherAppId: String) -> Bool {
        if appId.hasSuffix("*") { return pusherAppId.hasPrefix(appId.dropLast()) }
        return pusherAppId == appId
    }
}

extension [MatrixAppRoute] {
    /// The first entry that matches `appId`, in file order; nil when none does.
    package func route(for appId: String) -> MatrixAppRoute? { first { $0.matches(appId) } }
}
