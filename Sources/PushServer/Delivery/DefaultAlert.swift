/// The alert shown by FCM `ios` and APNs alert pushes (`notifications.defaultAlert`); the app's
/// notification service extension replaces it after decrypting the payload.
public struct DefaultAlert: Sendable, Equatable {
    public var title: String
    public var body: String

    public init(title: String = "New message", body: String = "") {
        self.title = title
        self.body = body
    }

    public static let standard = DefaultAlert()
}
