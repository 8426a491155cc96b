import PushDelivery
import PushProtocol

/// `POST /_matrix/push/v1/notify` as the Matrix Push Gateway API (v1) defines it: one
/// `notification` with its `devices`. Every field but `devices` and each device's `app_id` and
/// `pushkey` is optional; a homeserver sends `null` for some of them (Synapse's badge updates).
package struct MatrixNotifyRequest: Decodable, Sendable, Equatable {
    /// Everything of `notification` but its devices.
    package var notification: MatrixNotification
    /// `notification.devices`.
    package var devices: [Device]

    private enum Keys: String, CodingKey { case notification }
    private enum NotificationKeys: String, CodingKey { case devices }

    package init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        notification = try container.decode(MatrixNotification.self, forKey: .notification)
        devices = try container.nestedContainer(keyedBy: NotificationKeys.self, forKey: .notification)
            .decode([Device].self, forKey: .devices)
    }

    package struct Device: Decodable, Sendable, Equatable {
        package var appId: String
        package var pushkey: String
        package var pushkeyTs: Int?
        package var data: JSONValue?
        package var tweaks: JSONValue?

        enum CodingKeys: String, CodingKey {
            case appId = "app_id", pushkey, pushkeyTs = "pushkey_ts", data, tweaks
        }
    }

    /// Decodes a request body; every failure is the Matrix error the API names for it.
    package static func decode(_ body: [UInt8]) throws(MatrixError) -> MatrixNotifyRequest {
        guard JSON.value(body) != nil else { throw .notJSON }
        let request: MatrixNotifyRequest
        do {
            request = try JSON.decode(MatrixNotifyRequest.self, from: body)
        } catch let error as APIError {
            switch error.code {
            case .missingField: throw MatrixError(.missingParam, "\(error.field ?? "a field") is required")
            default: throw MatrixError(.badJSON, error.message)
            }
        } catch {
            throw MatrixError(.badJSON, "the body is not a push notification")
        }
        try request.checkShapes()
        return request
    }

    /// The members the API says are objects, when present.
    private func checkShapes() throws(MatrixError) {
        if let content = notification.content, content != .null, content.members == nil {
            throw MatrixError(.badJSON, "notification.content must be an object")
        }
        for (index, device) in devices.enumerated() {
            for (name, value) in [("data", device.data), ("tweaks", device.tweaks)] {
                if let value, value != .null, value.members == nil {
                    throw MatrixError(.badJSON, "notification.devices[\(index)].\(name) must be an object")
                }
            }
        }
    }
}
