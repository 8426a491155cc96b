import Foundation
import PushCrypto
import PushProtocol
import PushStore
import PushSupport

extension PushService {
    /// `GET /v1/notifications/{id}` (PROTOCOL §4.4): the caller's own notification only; any other
    /// id — someone else's, unknown, older than the outcome retention, or not an id at all — is the
    /// same 404, so nothing tells an id of another account from none.
    package func notificationStatus(id: String, caller: AccountID) throws(ServiceError) -> NotificationStatusResponse {
        let isID = id.utf8.count == 32 && id.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
        guard isID, let status = try stored(.read, { try notifications.notificationStatus(id: id, caller: caller.string) }) else {
            throw .refused(.notificationNotFound, "no notification of the caller with that id")
        }
        var providers: [String: DeliveryCounts] = [:]
        for (provider, counts) in status.providers { providers[provider.rawValue] = Self.wire(counts) }
        return NotificationStatusResponse(id: status.id, createdAt: Timestamp.rfc3339(status.createdAt),
                                          total: Self.wire(status.total), providers: providers)
    }

    private static func wire(_ counts: DeliveryStateCounts) -> DeliveryCounts {
        DeliveryCounts(queued: counts.queued, inFlight: counts.inFlight, delivered: counts.delivered, retrying: counts.retrying,
                       nextAttemptAt: counts.nextAttemptAt.map(Timestamp.rfc3339), expired: counts.expired, dead: counts.dead,
                       rejected: counts.rejected, superseded: counts.superseded)
    }
}
