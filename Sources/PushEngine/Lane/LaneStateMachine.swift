import Foundation
import PushDelivery
import PushProtocol
import PushStore
import PushSupport

/// Every decision of one provider lane, as a value with no I/O, no threads and no clock of its
/// own (the model is Hummingbird 2's connection state machines): the driver (`ProviderLane`)
/// feeds it events — tries finished, a pass at `now`, the reports of the actions it carried out
/// — and carries out the `Action`s they return against the store, the transport, the
/// credentials, the metrics and the log. Tests step a clock and feed events by hand.
///
/// What it keeps: at most `maxInFlight` tries outstanding, claimed in batches; the leases of
/// tries in flight renewed every `claimRenewInterval`; each finished try turned into the next
/// step by `RetryPolicy.decide`; a refused credential renewed once, then the provider shown
/// unhealthy; backoff scopes (`PushGateway.backoffScope(for:)`) held after an answer that says
/// so; tries to endpoints a registrant chose given a fair share of the lane (`FairShare`: per
/// origin and per recipient account, the rest returned to the queue untried); finished rows
/// deleted in one write per pass; after `stop()`, no claims, and `.exit` once nothing is in flight.
struct LaneStateMachine {
    struct Settings: Sendable {
        var policy: RetryPolicy
        var maxInFlight: Int
        var claimBatch: Int
        /// The longest the lane goes without a claim when nothing wakes it (rows made due by
        /// another process, or by a lapsed lease, are found this way).
        var pollInterval: TimeInterval
        /// Wait before trying to mint credentials again after a failure.
        var credentialRetry: TimeInterval
        /// Claims still being sent have their lease renewed this often.
        var claimRenewInterval: TimeInterval
        /// The shares of registrant-chosen origins and of recipient accounts.
        var fairShare = FairShare.Settings.default
        /// While tries are in flight, finished rows wait for a write until this many have
        /// gathered or `completionDelay` has passed since the first of them: under load each
        /// store write then deletes a large batch rather than the one or two answers that came
        /// in since the last pass (each write has a fixed cost: its transaction, its WAL pages,
        /// a count per notification). With nothing in flight they are written at once. A crash
        /// in between sends those rows again (at least once), as it always could between the
        /// answer and the write. The defaults write at every pass.
        var completionBatch = 1
        var completionDelay: TimeInterval = 0
    }

    /// One try of one claimed row, from its send to its answer.
    struct Attempt: Sendable, Equatable {
        var entryID: Int64
        var job: DeliveryJob
        /// The credential generation the request was built with (0 without credentials).
        var generation: Int
    }

    /// How a try ended.
    enum Result: Sendable, Equatable {
        /// The provider answered.
        case answered(ProviderAnswer)
        /// No answer came (`TransportFailure.outcome` classifies it).
        case failed(TransportFailure)
        /// No request could be built.
        case unbuilt(GatewayError)
    }

    let provider: Provider
    let settings: Settings
    private let gateway: any PushGateway
    /// Whether the provider has credentials to prepare and renew (FCM, APNs; Web Push signs
    /// per origin inside its gateway).
    let hasCredentials: Bool
    private var random = SystemRandomNumberGenerator()

    /// Tries claimed and not finished: being built, or sent and awaiting their answer.
    private(set) var inFlight = 0
    /// Their outbox rows, whose claims must not lapse.
    private var inFlightIDs: Set<Int64> = []
    private var nextRenewal = Date.distantFuture
    /// A claim is wanted at the next pass with room (set at start and by `wake()`).
    private var wakeRequested = true
    private(set) var stopping = false
    /// When to claim again unwoken: at once after a full claim, else a poll interval on.
    private var nextClaim = Date.distantPast
    /// The earliest retry this lane rescheduled since its last claim found nothing more due.
    private var nextDue: Date?
    /// The limit of the claim in progress.
    private var claimLimit = 0
    private var holds = OriginBackoff<String>()
    private var share: FairShare
    /// The provider's health as this lane last set it (`ProviderHealth` starts healthy).
    private var health = ProviderHealth.State.healthy
    /// The credential generation last reported: new tries are sent with it, and mints are
    /// counted from it.
    private var generation = 0
    /// Rows finished and not yet deleted (`Settings.completionBatch`).
    private var completions: [FinishedDelivery] = []
    /// When the oldest of `completions` was first seen by a pass.
    private var completionsSince: Date?

    init(provider: Provider, gateway: any PushGateway, hasCredentials: Bool, settings: Settings) {
        self.provider = provider
        self.gateway = gateway
        self.hasCredentials = hasCredentials
        self.settings = settings
        share = FairShare(settings: settings.fairShare, maxWindow: settings.maxInFlight)
    }

    /// The least room worth a claim: while answers trickle in, the lane waits for a quarter
    /// batch of room rather than paying a store round trip (and a build) for a handful of rows.
    private var claimThreshold: Int { max(1, min(settings.claimBatch, settings.maxInFlight) / 4) }

    private var hasRoom: Bool { settings.maxInFlight - inFlight >= claimThreshold }

    // MARK: Events from outside the lane

    /// Deliveries were queued: claim at the next pass with room, not a poll interval later.
    mutating func wake() { wakeRequested = true }

    /// Claim no more; the lane exits once every try in flight has finished.
    mutating func stop() { stopping = true }

    /// When the lane has work without an event (a claim, a lease renewal or its exit): the
    /// driver passes then, or earlier when a try finishes or a wakeup or stop arrives.
    func nextPass() -> Date {
        let completion = completionsSince.map { $0.addingTimeInterval(settings.completionDelay) } ?? .distantFuture
        let renewal = min(completion, inFlightIDs.isEmpty ? Date.distantFuture : nextRenewal)
        if stopping { return inFlight == 0 ? .distantPast : renewal }
        guard hasRoom else { return renewal }
        return wakeRequested ? .distantPast : min(renewal, nextClaim, nextDue ?? .distantFuture)
    }

    /// A pass at `now`, after the finished tries were fed: renews the leases when due, claims
    /// when there is room, deletes the finished rows (after the claim's sends, so the batch is
    /// built while the store writes), and exits when stopped with nothing in flight.
    mutating func pass(now: Date) -> [Action] {
        var actions: [Action] = []
        if !inFlightIDs.isEmpty, now >= nextRenewal {
            actions.append(.renewClaims(inFlightIDs.sorted()))
            nextRenewal = now.addingTimeInterval(settings.claimRenewInterval)
        }
        if !stopping, hasRoom {
            wakeRequested = false
            claimLimit = min(settings.maxInFlight - inFlight, settings.claimBatch)
            actions.append(hasCredentials ? .prepareCredentials : .claim(limit: claimLimit))
        }
        if !completions.isEmpty {
            let since = completionsSince ?? now
            if stopping || inFlight == 0 || completions.count >= settings.completionBatch
                || now >= since.addingTimeInterval(settings.completionDelay) {
                actions.append(.complete(completions))
                completions.removeAll(keepingCapacity: true)
                completionsSince = nil
            } else {
                completionsSince = since
            }
        }
        if stopping, inFlight == 0 { actions.append(.exit) }
        return actions
    }

    // MARK: Reports of the driver's actions

    /// `prepareCredentials` done: claim, or wait `credentialRetry` if none could be had.
    /// `generation` is the credentials' generation after it; `failure` why the last mint failed
    /// (`ProviderCredentials.lastFailure`: the token endpoint's answer, never a secret).
    mutating func credentialsPrepared(_ ready: Bool, generation: Int, failure: String? = nil, now: Date) -> [Action] {
        var actions = countMints(upTo: generation)
        guard ready else {
            actions += setHealth(.credentialsRefused, reason: DeliveryReason(.credentialsUnavailable, detail: failure))
            var fields = [LogField("provider", "\(provider.rawValue)"), LogField("state", "unavailable")]
            if let failure { fields.append(LogField("error", .string(failure))) }
            actions.append(.log(LogRecord(.warn, "credentials", fields)))
            nextClaim = now.addingTimeInterval(settings.credentialRetry)
            return actions
        }
        actions.append(.claim(limit: claimLimit))
        return actions
    }

    /// The claim failed (the driver logged why): try again a poll interval later.
    mutating func claimFailed(now: Date) {
        nextClaim = now.addingTimeInterval(settings.pollInterval)
    }

    /// The claim's rows: those of a held backoff scope go back to wait, those past their fair
    /// share go back untried, the rest are sent (probes of an origin that stopped answering with
    /// the short answer timeout).
    mutating func claimed(_ claim: OutboxClaim, now: Date) -> [Action] {
        var actions: [Action] = []
        if claim.expired > 0 { actions.append(.count(.expired, claim.expired)) }
        if claim.orphaned > 0 { actions.append(.count(.orphaned, claim.orphaned)) }
        var batch: [OutboxEntry] = []
        var probes: [OutboxEntry] = []
        var waiting: [Date: [Int64]] = [:]
        batch.reserveCapacity(claim.entries.count)
        for entry in claim.entries {
            if !holds.isEmpty, let key = gateway.backoffScope(for: entry.job),
               let until = holds.heldUntil(key, now: now) {
                actions.append(reschedule(entry.id, at: until))
                continue
            }
            let origin = gateway.registrantOrigin(for: entry.job(message: nil))
            switch share.admit(entry.id, origin: origin, account: entry.registration.account, now: now) {
            case .send(nil): batch.append(entry)
            case .send(.some): probes.append(entry)
            case .wait(let until): waiting[until, default: []].append(entry.id)
            }
        }
        for until in waiting.keys.sorted() {
            nextDue = min(nextDue ?? until, until)
            actions.append(.release(waiting[until]!, until: until))
        }
        for (entries, timeout) in [(batch, nil), (probes, settings.fairShare.probeTimeout)] where !entries.isEmpty {
            inFlight += entries.count
            inFlightIDs.formUnion(entries.lazy.map(\.id))
            if nextRenewal == .distantFuture { nextRenewal = now.addingTimeInterval(settings.claimRenewInterval) }
            actions.append(.send(entries, generation: generation, answerTimeout: timeout))
        }
        if claim.entries.count + claim.expired + claim.orphaned >= claimLimit {
            nextClaim = now  // more may be due
        } else {
            nextClaim = now.addingTimeInterval(settings.pollInterval)
            if let due = nextDue, due <= now { nextDue = nil }
        }
        return actions
    }

    // MARK: Steps shared with the handlers of finished tries (LaneStateMachine+Finished.swift)

    /// Reschedules a row and remembers the earliest such retry, so the lane claims for it
    /// without waiting out a poll interval.
    mutating func reschedule(_ entryID: Int64, at date: Date) -> Action {
        nextDue = min(nextDue ?? date, date)
        return .reschedule(entryID, at: date)
    }

    /// `.setHealth` when the provider's health changes.
    mutating func setHealth(_ state: ProviderHealth.State, reason: DeliveryReason? = nil) -> [Action] {
        guard state != health else { return [] }
        health = state
        return [.setHealth(state, reason: reason)]
    }

    /// Counts the credentials minted since the generation last reported.
    mutating func countMints(upTo generation: Int) -> [Action] {
        guard generation > self.generation else { return [] }
        defer { self.generation = generation }
        return [.countCredentialRefreshes(generation - self.generation)]
    }

    /// Takes one finished try off the in-flight books and tells its fair share how it ended.
    mutating func release(_ entryID: Int64, _ result: Result, now: Date) {
        share.finished(entryID, FairShare.Ending(result), now: now)
        inFlight -= 1
        inFlightIDs.remove(entryID)
        if inFlightIDs.isEmpty { nextRenewal = .distantFuture }
    }

    mutating func complete(_ entryID: Int64, _ outcome: FinalOutcome) {
        completions.append(FinishedDelivery(id: entryID, outcome: outcome))
    }

    mutating func hold(scopeOf job: DeliveryJob, until date: Date) {
        if let key = gateway.backoffScope(for: job) { holds.hold(key, until: date) }
    }

    func classify(_ result: Result, now: Date) -> DeliveryOutcome {
        switch result {
        case .answered(let answer): return gateway.classify(answer, now: now)
        case .failed(let failure): return failure.outcome
        case .unbuilt(let error): return error.outcome
        }
    }

    mutating func decide(_ outcome: DeliveryOutcome, for job: DeliveryJob, now: Date) -> DeliveryDecision {
        settings.policy.decide(outcome, for: job, now: now, using: &random)
    }
}
