import Foundation

/// Which claimed tries a lane sends now and which wait, so that endpoints a registrant chose
/// (Web Push: any origin, any number of registrations on it) cannot take the lane's slots from
/// everyone else (PROTOCOL §7). A value with no I/O and no clock of its own, part of one
/// `LaneStateMachine`; the lane asks `admit` for each claimed try it would send and reports each
/// admitted try's end with `finished`.
///
/// The rules, for tries to a registrant-chosen origin:
/// - an origin has at most its `OriginCircuit` window outstanding (`originSlots` at first,
///   widening by one per answer up to the lane's `maxInFlight`), one while it is probed;
/// - one recipient account has at most `accountSlots` outstanding, whatever the origins;
/// - an origin that left `openAfter` tries in a row unanswered gets nothing for `openFor`
///   (doubling up to `maxOpenFor`), then one probe at a time with `probeTimeout` to answer;
/// - a try that may not go now waits in the queue, untried (`OutboxStore.release`): until the
///   circuit closes, or `busyRetry` when a share is full.
///
/// So tries that never get an answer hold at most `originSlots` of the lane's slots per origin
/// and `accountSlots` per account, each for one request timeout, and after that one slot per
/// origin for `probeTimeout` each time its circuit closes. What the operator configured
/// (FCM, APNs, Push Kit: one origin, the lane's own) is not shared out: `origin` is nil there.
struct FairShare {
    struct Settings: Sendable, Equatable {
        /// Tries a new origin may have outstanding.
        var originSlots = 16
        /// Tries one recipient account may have outstanding (over registrant-chosen origins).
        var accountSlots = 16
        /// How long a try over a full share waits in the queue.
        var busyRetry: TimeInterval = 1
        /// The answer timeout of a probe to an origin that stopped answering.
        var probeTimeout: TimeInterval = 5
        /// Unanswered tries in a row that open an origin's circuit.
        var openAfter = 2
        /// How long the circuit first stays open; doubled each time it opens again.
        var openFor: TimeInterval = 30
        var maxOpenFor: TimeInterval = 600
        /// Origins remembered at most (idle ones are forgotten first, then the least recently
        /// used without a try outstanding): attacker-chosen origins cannot grow the lane's memory.
        var maxOrigins = 10_000

        static let `default` = Settings()
    }

    /// What becomes of one claimed try.
    enum Admission: Equatable {
        /// Send it; a non-nil answer timeout is shorter than the lane's request timeout.
        case send(answerTimeout: TimeInterval?)
        /// Return it to the queue, untried, due then.
        case wait(until: Date)
    }

    /// How an admitted try ended, as far as its origin's health goes.
    enum Ending: Equatable {
        /// Any HTTP answer (a 429 or 5xx too: the origin answers).
        case answered
        /// No answer in time: the origin may have stopped answering.
        case unanswered
        /// Ended without saying anything of the origin (refused, reset, never built).
        case failed
    }

    let settings: Settings
    /// The widest an origin's window gets: the lane's `maxInFlight`.
    let maxWindow: Int
    private(set) var origins: [String: OriginCircuit] = [:]
    /// Outstanding tries per recipient account (an account with none is absent).
    private(set) var accounts: [String: Int] = [:]
    /// Each admitted try's origin and account, until it finishes.
    private var admitted: [Int64: (origin: String, account: String)] = [:]

    init(settings: Settings = .default, maxWindow: Int) {
        self.settings = settings
        self.maxWindow = max(1, maxWindow)
    }

    /// Whether try `id` (outbox row) to `origin` for `account` goes now. Tries whose `origin` is
    /// nil always go and are not tracked.
    mutating func admit(_ id: Int64, origin: String?, account: String, now: Date) -> Admission {
        guard let origin else { return .send(answerTimeout: nil) }
        var circuit = origins[origin]
            ?? OriginCircuit(window: min(settings.originSlots, maxWindow), opening: settings.openFor, now: now)
        if let until = circuit.openUntil, until > now { return .wait(until: until) }
        let accountInFlight = accounts[account, default: 0]
        guard circuit.inFlight < circuit.limit, accountInFlight < settings.accountSlots else {
            return .wait(until: now.addingTimeInterval(settings.busyRetry))
        }
        circuit.inFlight += 1
        circuit.lastUsed = now
        if origins.updateValue(circuit, forKey: origin) == nil, origins.count > settings.maxOrigins { forget(now: now) }
        accounts[account] = accountInFlight + 1
        admitted[id] = (origin, account)
        return .send(answerTimeout: circuit.isProbing ? settings.probeTimeout : nil)
    }

    /// Try `id` ended; a try `admit` did not track is ignored.
    mutating func finished(_ id: Int64, _ ending: Ending, now: Date) {
        guard let (origin, account) = admitted.removeValue(forKey: id) else { return }
        if let left = accounts[account], left > 1 { accounts[account] = left - 1 } else { accounts[account] = nil }
        guard var circuit = origins[origin] else { return }
        circuit.inFlight -= 1
        circuit.lastUsed = now
        switch ending {
        case .answered: circuit.answered(maxWindow: maxWindow, settings: settings)
        case .unanswered: circuit.unanswered(now: now, settings: settings)
        case .failed: break
        }
        origins[origin] = circuit
    }

    /// Tries admitted and not finished.
    var outstanding: Int { admitted.count }

    /// Brings the origins remembered down to nine tenths of `maxOrigins` (so the sweep runs
    /// once per tenth, not per new origin): idle ones first, then those with nothing outstanding,
    /// least recently used first. An origin with a try outstanding stays (those are at most the
    /// lane's `maxInFlight`).
    private mutating func forget(now: Date) {
        let target = settings.maxOrigins - settings.maxOrigins / 10
        origins = origins.filter { !$0.value.isIdle(now: now) }
        guard origins.count > target else { return }
        let unused = origins.filter { $0.value.inFlight == 0 }.sorted { $0.value.lastUsed < $1.value.lastUsed }
        for (origin, _) in unused.prefix(origins.count - target) { origins[origin] = nil }
    }
}

extension FairShare.Ending {
    /// How a lane's finished try bears on its origin: a timeout is the only sign it stopped answering.
    init(_ result: LaneStateMachine.Result) {
        switch result {
        case .answered: self = .answered
        case .failed(.timedOut): self = .unanswered
        case .failed, .unbuilt: self = .failed
        }
    }
}
