import PushProtocol

/// The data keys every device receives (PROTOCOL §5), byte-compatible with the any apps.
///
/// `x-any-group-id` is always present, empty when the Notify had no `groupId`: the any Android
/// app drops a push whose data lacks the key, and the reference node always sent it.
package enum DataKeys {
    /// The key/value pairs for a job, in a fixed order so request bodies are deterministic.
    package static func pairs(for job: DeliveryJob) -> [(String, String)] {
        var pairs: [(String, String)] = [
            (DataKey.type, job.kind.dataType),
            (DataKey.id, job.notificationId),
            (DataKey.groupId, job.groupId ?? ""),
        ]
        if let message = job.message {
            pairs.append((DataKey.payload, message.payload))
            pairs.append((DataKey.signature, message.signature))
            pairs.append((DataKey.keyId, message.keyId))
        }
        return pairs
    }

    /// UTF-8 bytes of all keys plus values: what FCM counts against its 4096-byte data limit.
    package static func size(of pairs: [(String, String)]) -> Int {
        pairs.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count }
    }

    /// The data keys of a job as JSON object members (`"k":"v",…`, no braces), rendered once per
    /// notification: every recipient of one Notify gets the same keys (a 2 KB message is 2.7 KB of
    /// base64 to scan for escapes), so the delivery engine renders them for a batch's first job of
    /// each notification and hands the bytes to the rest (`DeliveryJob.dataKeys`).
    package struct Rendered: Sendable, Equatable {
        package var members: [UInt8]
        /// `size(of:)` of the pairs: what FCM counts against its data limit.
        package var size: Int
    }

    /// The job's rendered data keys: those it carries, or rendered now.
    package static func rendered(for job: DeliveryJob) -> Rendered {
        if let rendered = job.dataKeys { return rendered }
        let pairs = pairs(for: job)
        var members: [UInt8] = []
        members.reserveCapacity(size(of: pairs) + 8 * pairs.count)
        JSONValue.writeMembers(pairs.map { ($0.0, .string($0.1)) }, to: &members)
        return Rendered(members: members, size: size(of: pairs))
    }
}

