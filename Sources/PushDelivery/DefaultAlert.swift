/// The alert shown by FCM `ios` and APNs alert pushes (`notifications.defaultAlert`); the app's
/// notification service extension replaces it after decrypting the payload.
package struct DefaultAlert: Sendable, Equatable {
    package var title: String
    package var body: String

    package init(title: String = "New message", body: String = "") {
        self.title = title
        self.body = body
    }

    package static let standard = DefaultAlert()
}
