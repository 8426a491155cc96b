import Foundation

extension FCMGateway {
    /// `{"message": {"token", "data", "android" | "apns"}}` (PROTOCOL §5).
    ///
    /// `android`: data-only; priority HIGH for message and call, NORMAL for silent;
    /// `ttl` the whole seconds left; `collapse_key` = groupId for messages.
    /// `ios`: the same `data` plus an `apns` block with the headers and `aps` a direct APNs
    /// push would carry (`APNsPushStyle`); `apns-expiration` is the job's expiry.
    static func message(for job: DeliveryJob, data: JSONValue, ttl: Int, defaultAlert: DefaultAlert) -> JSONValue {
        var message: [(String, JSONValue)] = [
            ("token", .string(job.registration.token)),
            ("data", data),
        ]
        if job.registration.platform == .ios {
            message.append(("apns", apnsBlock(for: job, defaultAlert: defaultAlert)))
        } else {
            var android: [(String, JSONValue)] = [
                ("priority", .string(job.kind.isUrgent ? "HIGH" : "NORMAL")),
                ("ttl", .string("\(ttl)s")),
            ]
            if job.kind.collapses, let group = job.groupId, !group.isEmpty {
                android.append(("collapse_key", .string(group)))
            }
            message.append(("android", .object(android)))
        }
        return .object([("message", .object(message))])
    }

    private static func apnsBlock(for job: DeliveryJob, defaultAlert: DefaultAlert) -> JSONValue {
        let style = APNsPushStyle(job: job, defaultAlert: defaultAlert)
        var headers: [(String, String)] = [
            ("apns-push-type", style.pushType),
            ("apns-priority", String(style.priority)),
            ("apns-expiration", String(APNsGateway.expiration(for: job))),
        ]
        if let collapse = APNsPushStyle.collapseId(for: job) { headers.append(("apns-collapse-id", collapse)) }
        var payload: [(String, JSONValue)] = []
        if let aps = style.aps { payload.append(("aps", aps)) }
        return .object([("headers", .strings(headers)), ("payload", .object(payload))])
    }

    /// A Matrix push (Spec/matrix.md "FCM"): `{"message": {"token", "data", "android":
    /// {"priority", "ttl"}}}`, data-only like sygnal's, HIGH unless the homeserver said `low`.
    static func matrixMessage(token: String, data: [(String, String)], priority: MatrixPush.Priority, ttl: Int) -> JSONValue {
        let android: JSONValue = .object([("priority", .string(priority == .low ? "NORMAL" : "HIGH")), ("ttl", .string("\(ttl)s"))])
        return .object([("message", .object([("token", .string(token)), ("data", .strings(data)), ("android", android)]))])
    }
}
