import Foundation
import PushDelivery
import PushProtocol
import PushStore
import PushSupport

/// One provider's share of the delivery engine for one app (`LaneKey`): a thread that carries out
/// the decisions of a `LaneStateMachine` against the store, the transport, the credentials, the
/// metrics and the log. Lanes share nothing, so one provider's (or app's) backlog, retry storm or
/// refused credentials never holds up another.
///
/// Three kinds of thread meet here, and only through `condition`: the lane's own thread owns
/// the machine and does every store write; a builder queue builds and sends each claimed
/// batch (so a batch's Web Push encryption runs while the lane's thread does the store's work);
/// the HTTP client's thread only queues answers. Wakeups and stop requests are queued the same
/// way. The driver decides nothing itself.
///
/// A `LongRunning` part, started and drained by its `DeliveryEngine`: `stop()` stops claiming,
/// `drain(timeout:)` waits until the answers of the tries in flight are applied.
final class ProviderLane: LongRunning, @unchecked Sendable {
    /// A finished try queued for the lane's thread.
    private struct Finished {
        var attempt: LaneStateMachine.Attempt
        var result: LaneStateMachine.Result
        /// `clock.monotonic` when the request was sent; nil when none was built.
        var sentAt: Double?
    }

    let provider: Provider
    var name: String { "delivery-\(key.name)" }
    let key: LaneKey
    /// The registrations whose deliveries this lane claims; a row of another app than `key.app`
    /// among them (the `default` lane's catch-all) is rejected, never sent with these credentials.
    private let claims: AppFilter
    private let gateway: any PushGateway
    private let credentials: (any ProviderCredentials)?
    private let store: any OutboxStore
    private let transport: any DeliveryTransport
    /// Upper bound of one request's time; the job's remaining ttl bounds it further.
    private let requestTimeout: TimeInterval
    private let metrics: DeliveryMetrics
    private let health: ProviderHealth
    private let summary: DeliverySummary
    private let activity: DeliveryActivity
    private let log: LogSink
    private let clock: EngineClock
    /// Builds and sends claimed batches, one at a time, off the lane's thread.
    private let builder: DispatchQueue

    /// The lane's thread only.
    private var machine: LaneStateMachine

    private let condition = NSCondition()
    // Guarded by `condition`.
    private var finished: [Finished] = []
    private var wakePending = false
    private var stopPending = false
    private var started = false
    private var exited = false
    /// `machine.inFlight` as of the lane's last pass.
    private var inFlightSnapshot = 0

    init(key: LaneKey, claims: AppFilter = .all, gateway: any PushGateway, credentials: (any ProviderCredentials)?,
         store: any OutboxStore,
         transport: any DeliveryTransport, settings: LaneStateMachine.Settings, requestTimeout: TimeInterval,
         metrics: DeliveryMetrics, health: ProviderHealth, summary: DeliverySummary, activity: DeliveryActivity,
         log: LogSink, clock: EngineClock) {
        provider = gateway.provider
        self.key = key
        self.claims = claims
        self.gateway = gateway
        self.credentials = credentials
        self.store = store
        self.transport = transport
        self.requestTimeout = requestTimeout
        self.metrics = metrics
        self.health = health
        self.summary = summary
        self.activity = activity
        self.log = log
        self.clock = clock
        machine = LaneStateMachine(provider: gateway.provider, gateway: gateway, hasCredentials: credentials != nil,
                                   settings: settings)
        builder = DispatchQueue(label: "pushnode.delivery.build.\(key.name)")
    }

    func start() {
        guard condition.withLock({ () -> Bool in
            defer { started = true }
            return !started
        }) else { return }
        let thread = Thread { [self] in run() }
        thread.name = "pushnode-delivery-\(key.name)"
        thread.start()
    }

    /// Claims promptly (a Notify was just committed).
    func wake() {
        condition.withLock {
            wakePending = true
            condition.signal()
        }
    }

    /// Stops claiming; the tries in flight go on.
    func stop() {
        condition.withLock {
            stopPending = true
            condition.broadcast()
        }
    }

    /// Waits until the tries in flight are applied and the thread ended, or `timeout` seconds
    /// (`clock.monotonic`) pass. Rows still claimed then become due again when the store next opens.
    @discardableResult
    func drain(timeout: Double) -> Bool {
        stop()
        let deadline = clock.monotonic() + timeout
        condition.lock()
        defer { condition.unlock() }
        while started && !exited {
            let left = deadline - clock.monotonic()
            if left <= 0 { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: left))
        }
        return true
    }

    /// Tries claimed and not yet finished, as of the lane's last pass.
    var requestsInFlight: Int { condition.withLock { inFlightSnapshot } }

    // MARK: The lane's thread

    private func run() {
        var batch: [Finished] = []
        while true {
            condition.lock()
            inFlightSnapshot = machine.inFlight
            while finished.isEmpty && !wakePending && !stopPending {
                let now = clock.now()
                let due = machine.nextPass()
                if now >= due { break }
                // Capped, so a step of the wall clock is noticed within a poll interval.
                let wait = max(0.001, min(machine.settings.pollInterval, due.timeIntervalSince(now)))
                _ = condition.wait(until: Date(timeIntervalSinceNow: wait))
            }
            swap(&batch, &finished)
            if wakePending { machine.wake() }
            if stopPending { machine.stop() }
            wakePending = false
            stopPending = false
            condition.unlock()

            for item in batch {
                if let sentAt = item.sentAt {
                    metrics.inFlight.add(-1, provider.rawValue, key.app)
                    if case .answered = item.result {
                        metrics.sendSeconds.observe(clock.monotonic() - sentAt, provider.rawValue, key.app)
                    }
                }
                carryOut(machine.finished(item.attempt, item.result, now: clock.now()))
            }
            batch.removeAll(keepingCapacity: true)
            if carryOut(machine.pass(now: clock.now())) {
                condition.withLock {
                    exited = true
                    inFlightSnapshot = 0
                    condition.broadcast()
                }
                return
            }
        }
    }

    /// Carries out `actions` in order. An action's report goes to the machine at once, and the
    /// actions it returns run before the rest of the list (a claim's sends before the pass's
    /// completions), from one work list rather than by recursion. True at `.exit`.
    @discardableResult
    private func carryOut(_ actions: [LaneStateMachine.Action]) -> Bool {
        var pending = Array(actions.reversed())
        while let action = pending.popLast() {
            if case .exit = action { return true }
            pending.append(contentsOf: perform(action).reversed())
        }
        return false
    }

    /// One action; returns what the machine made of its report.
    private func perform(_ action: LaneStateMachine.Action) -> [LaneStateMachine.Action] {
        let name = provider.rawValue
        let app = key.app
        switch action {
        case .prepareCredentials:
            let now = clock.now()
            let ready = credentials?.prepare(now: now) ?? true
            return machine.credentialsPrepared(ready, generation: credentials?.generation ?? 0,
                                               failure: ready ? nil : credentials?.lastFailure, now: now)
        case .claim(let limit):
            let claim: OutboxClaim
            do { claim = try store.claimDue(provider: provider, apps: claims, limit: limit, now: clock.now()) } catch {
                log(.error, "outbox_claim", ["provider": "\(key.name)", "error": "\(error)"])
                machine.claimFailed(now: clock.now())
                return []
            }
            return machine.claimed(claim, now: clock.now())
        case .send(let entries, let generation, let answerTimeout):
            builder.async { [self] in build(entries, generation: generation, answerTimeout: answerTimeout) }
        case .reschedule(let id, let date):
            do { try store.reschedule(id, at: date) } catch {
                log(.error, "outbox_reschedule", ["provider": "\(name)", "error": "\(error)"])
            }
        case .release(let ids, let until):
            do { try store.release(ids, until: until) } catch {
                log(.error, "outbox_release", ["provider": "\(name)", "error": "\(error)"])
            }
        case .complete(let finished):
            do { try store.complete(finished, at: clock.now()) } catch {
                log(.error, "outbox_complete", ["provider": "\(name)", "error": "\(error)"])
            }
        case .renewClaims(let ids):
            renewClaims(ids)
        case .refreshCredentials(let attempt, let reason, let retryAt):
            let now = clock.now()
            let renewal = credentials?.refused(generation: attempt.generation, now: now) ?? .gaveUp
            return machine.credentialsRenewed(renewal, generation: credentials?.generation ?? 0, for: attempt,
                                              reason: reason, retryAt: retryAt, now: now)
        case .credentialsAccepted(let generation):
            credentials?.accepted(generation: generation)
        case .prune(let registrationID, let notUpdatedAfter, let reason):
            let pruned = (try? store.pruneRegistration(registrationID, notUpdatedAfter: notUpdatedAfter)) ?? false
            if pruned {
                metrics.pruned.increment(name, app, reason.code.rawValue)
                log(.info, "registration_pruned", ["provider": "\(name)",
                                                   "registration": "\(registrationID.prefix(DeliveryEvent.registrationPrefix))",
                                                   "reason": "\(reason.code.rawValue)"])
            }
        case .count(let outcome, let count):
            metrics.deliveries.increment(name, app, outcome.rawValue, by: Double(count))
            summary.add(provider, outcome, count)
            activity.count(outcome, count, at: clock.now())
        case .countCredentialRefreshes(let count):
            metrics.credentialRefreshes.increment(name, app, by: Double(count))
        case .setHealth(let state, let reason):
            health.set(provider, app: app, state, reason: reason, at: clock.now())
        case .log(let record):
            log(record)
        case .finishedTry(let event):
            // A delivered try logs at debug: its record is not even built when that is off.
            if log.isEnabled(event.level) { log(event.record) }
            let now = clock.now()
            activity.record(event, at: now)
            if event.outcome == .delivered {
                metrics.deliveredAfter.observe(max(0, now.timeIntervalSince(event.acceptedAt)), name, app)
            } else {
                health.recordFailure(provider, app: app, reason: event.reason?.code.rawValue ?? event.outcome.rawValue, at: now)
            }
        case .exit:
            break
        }
        return []
    }

    /// Extends the leases of rows still being sent. A row this node no longer holds (its lease
    /// lapsed and another node took it) is logged: its answer will still be applied here.
    private func renewClaims(_ ids: [Int64]) {
        do {
            let held = try store.renewClaims(ids, now: clock.now())
            if held.count < ids.count {
                log(.warn, "claims_lost", ["provider": "\(provider.rawValue)", "count": .int(ids.count - held.count)])
            }
        } catch {
            log(.warn, "claim_renewal_failed", ["provider": "\(provider.rawValue)", "error": "\(error)"])
        }
    }

    // MARK: The builder queue and the HTTP client's thread

    /// The batch's jobs and requests, made in parallel (Web Push encrypts each), then sent; a
    /// request that cannot be built is queued as finished. Building at send time is also when
    /// the gateway checks a Web Push endpoint's host is still publicly routable.
    private func build(_ entries: [OutboxEntry], generation: Int, answerTimeout: TimeInterval?) {
        let now = clock.now()
        let gateway = self.gateway
        let app = key.app
        // What every recipient of one notification shares, made once per notification.
        var shared: [String: (message: DeliveryJob.SealedMessage?, dataKeys: DataKeys.Rendered)] = [:]
        for entry in entries where shared[entry.notification.id] == nil {
            let message = entry.sealedMessage
            shared[entry.notification.id] = (message, DataKeys.rendered(for: entry.job(message: message)))
        }
        let built = ParallelMap.map(entries) { [shared] entry -> (DeliveryJob, Swift.Result<OutboundRequest, GatewayError>) in
            let common = shared[entry.notification.id]
            var job = entry.job(message: common?.message)
            job.dataKeys = common?.dataKeys
            guard LaneKey.app(of: job.registration.appId) == app else { return (job, .failure(.appUnconfigured)) }
            do throws(GatewayError) { return (job, .success(try gateway.request(for: job, now: now))) } catch {
                return (job, .failure(error))
            }
        }
        for (entry, (job, request)) in zip(entries, built) {
            let attempt = LaneStateMachine.Attempt(entryID: entry.id, job: job, generation: generation)
            switch request {
            case .success(let request):
                send(request, attempt, answerTimeout: answerTimeout, now: now)
            case .failure(let error):
                queue(Finished(attempt: attempt, result: .unbuilt(error), sentAt: nil))
            }
        }
    }

    private func send(_ request: OutboundRequest, _ attempt: LaneStateMachine.Attempt, answerTimeout: TimeInterval?,
                      now: Date) {
        let seconds = min(answerTimeout ?? requestTimeout, requestTimeout, Double(max(1, attempt.job.remainingTTL(at: now))))
        metrics.inFlight.add(1, provider.rawValue, key.app)
        let sentAt = clock.monotonic()
        transport.send(request, provider: provider, timeout: .milliseconds(Int64(seconds * 1000))) { [self] result in
            switch result {
            case .success(let answer): queue(Finished(attempt: attempt, result: .answered(answer), sentAt: sentAt))
            case .failure(let failure): queue(Finished(attempt: attempt, result: .failed(failure), sentAt: sentAt))
            }
        }
    }

    private func queue(_ item: Finished) {
        condition.withLock {
            finished.append(item)
            condition.signal()
        }
    }
}
