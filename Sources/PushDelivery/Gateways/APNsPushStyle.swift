/// How a job looks to APNs, sent directly or through FCM's `apns` block (PROTOCOL §5):
/// push type, priority and the `aps` dictionary.
struct APNsPushStyle {
    /// `apns-push-type`: `alert`, `background` or `voip`.
    let pushType: String
    /// `apns-priority`: 10 wakes the device now; background pushes must use 5.
    let priority: Int
    /// The `aps` dictionary; nil for VoIP, whose payload is handed to the app as it is.
    let aps: JSONValue?

    init(job: DeliveryJob, defaultAlert: DefaultAlert, voip: Bool = false) {
        if voip {
            (pushType, priority, aps) = ("voip", 10, nil)
            return
        }
        switch job.kind {
        case .silent, .clear:
            // A clear goes to the alert token as a background push, never over VoIP (a VoIP push
            // must report a call), and APNs refuses background pushes at a priority other than 5.
            pushType = "background"
            priority = 5
            aps = .object([("content-available", .int(1))])
        case .message, .call:
            // A call without PushKit is shown as an ordinary alert; `x-any-type` stays `call`.
            pushType = "alert"
            priority = 10
            var members: [(String, JSONValue)] = [
                ("alert", .object([("title", .string(defaultAlert.title)), ("body", .string(defaultAlert.body))])),
            ]
            // A content-free wake: iOS throttles pure background pushes, so it is a minimal alert
            // that also wakes the app to fetch.
            if job.message == nil { members.append(("content-available", .int(1))) }
            members.append(("mutable-content", .int(1)))
            if let group = job.groupId, !group.isEmpty { members.append(("thread-id", .string(group))) }
            aps = .object(members)
        }
    }

    /// `apns-collapse-id` for the job, when it collapses and its group fits APNs' 64 bytes.
    static func collapseId(for job: DeliveryJob) -> String? {
        guard job.kind.collapses, let group = job.groupId, !group.isEmpty, group.utf8.count <= 64 else { return nil }
        return group
    }
}
