import Foundation
import PushDelivery
import PushMetrics
import PushNet
import PushService
import PushSupport

/// The Matrix Push Gateway door (PROTOCOL §10, Spec/matrix.md): a homeserver's
/// `POST /_matrix/push/v1/notify` becomes one outbox push per device, answered after the pushes
/// are committed (`200` = queued durably, as for Notify) with the pushkeys the homeserver should
/// delete. The decisions are `MatrixDispatch`'s; this class adds what needs state or I/O — the
/// allow list, the rate limits, the devices known dead, the endpoint lookups and the store.
package final class MatrixDoor: Sendable {
    /// An answer for the HTTP door to send as it is.
    package struct Answer: Sendable, Equatable {
        package var status: Int
        package var headers: [(String, String)]
        package var body: [UInt8]

        package init(status: Int, headers: [(String, String)], body: [UInt8]) {
            self.status = status
            self.headers = headers
            self.body = body
        }

        /// The answer of a refusal.
        package init(_ error: MatrixError) {
            var headers = [("Content-Type", "application/json")]
            if let retryAfter = error.retryAfter { headers.append(("Retry-After", String(retryAfter))) }
            self.init(status: error.status, headers: headers, body: error.body)
        }

        package static func == (lhs: Answer, rhs: Answer) -> Bool {
            lhs.status == rhs.status && lhs.body == rhs.body && lhs.headers.elementsEqual(rhs.headers, by: ==)
        }
    }

    package let configuration: MatrixDoorConfiguration
    private let service: PushService
    private let dead: DeadPushkeys
    private let sources: RateLimiter
    private let pushkeys: RateLimiter
    private let devices: Counter
    private let log: LogSink

    package init(configuration: MatrixDoorConfiguration, service: PushService, dead: DeadPushkeys,
                 metrics: MetricsRegistry, log: LogSink, now: @escaping @Sendable () -> Double = Clocks.monotonicSeconds) {
        self.configuration = configuration
        self.service = service
        self.dead = dead
        // One bucket per key in each; only the `notify` class is used.
        self.sources = RateLimiter(policy: RateLimitPolicy(notifyPerSecond: configuration.sourcePerSecond,
                                                           notifyBurst: configuration.sourceBurst), now: now)
        self.pushkeys = RateLimiter(policy: RateLimitPolicy(notifyPerSecond: configuration.pushkeyPerMinute / 60,
                                                            notifyBurst: configuration.pushkeyBurst), now: now)
        self.devices = metrics.counter("pushnode_matrix_devices_total",
                                       help: "Devices of Matrix Push Gateway requests by what the door did: queued, duplicate, rejected, skipped (nothing to send), unconfigured (the app has no credentials for the platform).",
                                       labels: ["outcome"])
        self.log = log
    }

    /// `GET /_matrix/push/v1/notify`: the UnifiedPush gateway discovery answer.
    package static let discovery = Answer(status: 200, headers: [("Content-Type", "application/json")],
                                          body: Array(#"{"unifiedpush":{"gateway":"matrix"}}"#.utf8))

    /// `POST /_matrix/push/v1/notify` from `source` (nil when the listener could not tell).
    package func notify(body: [UInt8], source: IPAddress?) -> Answer {
        guard configuration.admits(source) else {
            return answer(MatrixError(.forbidden, "this address may not use the push gateway"))
        }
        if case .denied(let retryAfter) = sources.take(account: source?.description ?? "-", rateClass: .notify) {
            return answer(MatrixError(.limitExceeded, "too many requests from this address", retryAfter: retryAfter))
        }
        let request: MatrixNotifyRequest
        do { request = try MatrixNotifyRequest.decode(body) } catch { return answer(error) }

        var rejected: [String] = []
        var queue: [DirectPush] = []
        var skipped = 0
        var unconfigured = 0
        let decisions = MatrixDispatch.decisions(for: request, configuration: configuration, now: service.clock(),
                                                 newID: PushService.directNotificationID)
        for decision in decisions {
            switch decision {
            case .reject(let pushkey):
                rejected.append(pushkey)
            case .skip:
                skipped += 1
            case .queue(let pushkey, let push):
                if dead.contains(push.registrationId) || (push.address.platform == .webpush && service.endpointVerdict(push.address.token) == .refused) {
                    rejected.append(pushkey)
                } else if !service.sends(push.address.platform, app: push.address.appId) {
                    // The node's mistake, not the pusher's: kept (not rejected), not queued, counted.
                    unconfigured += 1
                } else {
                    queue.append(push)
                }
            }
        }
        for push in queue {
            if case .denied(let retryAfter) = pushkeys.take(account: push.registrationId, rateClass: .notify) {
                return answer(MatrixError(.limitExceeded, "too many pushes to one device", retryAfter: retryAfter))
            }
        }
        var queued = 0
        for push in queue {
            do {
                if try service.queueDirect(push, caller: MatrixDispatch.account) { queued += 1 }
            } catch {
                log(LogRecord(.error, "matrix_notify_failed", ["reason": "storage"]))
                return answer(MatrixError(.unknown, "the node cannot store the push now; retry", retryAfter: 1))
            }
        }
        count(["queued": queued, "duplicate": queue.count - queued, "rejected": rejected.count, "skipped": skipped,
               "unconfigured": unconfigured])
        log(LogRecord(.debug, "matrix_notify", [
            "devices": .int(decisions.count), "queued": .int(queued), "rejected": .int(rejected.count), "skipped": .int(skipped),
        ]))
        let body = JSONValue.object([("rejected", .array(rejected.map(JSONValue.string)))]).bytes
        return Answer(status: 200, headers: [("Content-Type", "application/json")], body: body)
    }

    private func count(_ outcomes: [String: Int]) {
        for (outcome, number) in outcomes where number > 0 { devices.increment(outcome, by: Double(number)) }
    }

    private func answer(_ error: MatrixError) -> Answer { Answer(error) }
}
