import Foundation
import PushProtocol
import PushSupport
@testable import PushDelivery
@testable import PushEngine
@testable import PushStore

/// A lane state machine under a manual clock: events are fed by hand, no thread, no sleeping.
/// A class, so its events can be fed inside `#expect`.
final class LaneUnderTest {
    typealias Action = LaneStateMachine.Action

    static let policy = RetryPolicy(attempts: 4, initialBackoff: 10, maxBackoff: 10)  // fixed: no jitter

    let clock = ManualClock()
    var machine: LaneStateMachine

    init(provider: Provider = .fcm, credentials: Bool = false, maxInFlight: Int = 8, claimBatch: Int = 4,
         policy: RetryPolicy = LaneUnderTest.policy, fairShare: FairShare.Settings = .default,
         completionBatch: Int = 1, completionDelay: TimeInterval = 0) {
        let gateway: any PushGateway
        switch provider {
        case .fcm:
            gateway = CredentialedGateway<FCMGateway>(configuration: .init(projectId: "p", baseURL: "https://fcm.test"), credential: { "token" })
        case .apns:
            gateway = CredentialedGateway<APNsGateway>(configuration: .init(topic: "org.example.app", host: .custom("https://apns.test")),
                                                       credential: { "jwt" })
        case .webpush:
            gateway = WebPushGateway(encryptor: EchoEncryptor(), authorizer: EchoAuthorizer(), isRoutable: { _ in true })
        case .huawei:
            gateway = CredentialedGateway<HuaweiGateway>(configuration: .init(appId: "a", baseURL: "https://huawei.test"), credential: { "token" })
        case .harmony:
            gateway = CredentialedGateway<HarmonyGateway>(configuration: .init(projectId: "p", baseURL: "https://harmony.test"),
                                                          credential: { "jwt" })
        }
        machine = LaneStateMachine(
            provider: provider, gateway: gateway, hasCredentials: credentials,
            settings: .init(policy: policy, maxInFlight: maxInFlight, claimBatch: claimBatch, pollInterval: 1,
                            credentialRetry: 5, claimRenewInterval: 10, fairShare: fairShare,
                            completionBatch: completionBatch, completionDelay: completionDelay))
    }

    var now: Date { clock.now }

    func pass() -> [Action] { machine.pass(now: now) }

    func claimed(_ entries: [OutboxEntry], expired: Int = 0, orphaned: Int = 0) -> [Action] {
        machine.claimed(OutboxClaim(entries: entries, expired: expired, orphaned: orphaned), now: now)
    }

    func finished(_ entry: OutboxEntry, _ result: LaneStateMachine.Result, generation: Int = 0) -> [Action] {
        machine.finished(attempt(entry, generation: generation), result, now: now)
    }

    /// Claims `entries` on a pass (which must ask for a claim) and returns the claim's actions.
    @discardableResult
    func claimOnPass(_ entries: [OutboxEntry]) -> [Action] {
        let actions = pass()
        precondition(actions.contains { if case .claim = $0 { return true } else { return false } })
        return claimed(entries)
    }

    func attempt(_ entry: OutboxEntry, generation: Int = 0) -> LaneStateMachine.Attempt {
        LaneStateMachine.Attempt(entryID: entry.id, job: entry.job, generation: generation)
    }

    /// A claimed row of `platform` queued at the clock's start (an FCM token or a Web Push endpoint).
    func entry(_ id: Int64, platform: Platform = .android, token: String? = nil, attempts: Int = 1,
               ttl: TimeInterval = 3600, account: String = "A") -> OutboxEntry {
        OutboxEntry(id: id, attempts: attempts, createdAt: t0, expiresAt: t0.addingTimeInterval(ttl),
                    notification: notification("n\(id)", at: t0, ttl: ttl),
                    registration: registration("r\(id)", account: account, platform: platform, token: token ?? "tok-\(id)"))
    }

    static func answer(_ status: Int, _ json: String = "", headers: [String: String] = [:]) -> LaneStateMachine.Result {
        .answered(ProviderAnswer(status: status, headers: headers, body: Array(json.utf8)))
    }
}

extension [LaneStateMachine.Action] {
    /// The `.log` lines, the rest left out.
    var logs: [String] { records.map(\.text) }
    /// The `.log` records.
    var records: [LogRecord] {
        compactMap {
            switch $0 {
            case .log(let record): record
            case .finishedTry(let event): event.record
            default: nil
            }
        }
    }
    /// Everything but `.log`.
    var withoutLogs: [LaneStateMachine.Action] { filter {
        switch $0 {
        case .log, .finishedTry: false
        default: true
        }
    } }
}
