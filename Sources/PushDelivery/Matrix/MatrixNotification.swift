/// The event part of a Matrix Push Gateway notification (everything but `devices`), under its
/// wire names: what the homeserver sends the Matrix door, and what the door keeps of it in the
/// outbox (`MatrixPush`). Every member is optional; `null` reads as absent.
package struct MatrixNotification: Sendable, Equatable, Codable {
    package var eventId: String?
    package var roomId: String?
    package var type: String?
    package var sender: String?
    package var senderDisplayName: String?
    package var roomName: String?
    package var roomAlias: String?
    package var membership: String?
    package var userIsTarget: Bool?
    /// `high` unless the homeserver said `low`.
    package var prio: MatrixPush.Priority?
    /// The event's content (an object).
    package var content: JSONValue?
    package var counts: Counts?

    package struct Counts: Sendable, Equatable, Codable {
        package var unread: Int?
        package var missedCalls: Int?

        enum CodingKeys: String, CodingKey {
            case unread, missedCalls = "missed_calls"
        }
    }

    enum CodingKeys: String, CodingKey {
        case eventId = "event_id", roomId = "room_id", type, sender, senderDisplayName = "sender_display_name"
        case roomName = "room_name", roomAlias = "room_alias", membership, userIsTarget = "user_is_target"
        case prio, content, counts
    }

    package var unread: Int? { counts?.unread }
    package var missedCalls: Int? { counts?.missedCalls }
}
