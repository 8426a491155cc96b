import Foundation
import HTTPClient
import PushProtocol
import PushDelivery
import PushStore
import PushSupport

/// One provider's share of the delivery engine: a thread that claims that provider's due
/// outbox rows, sends them with at most `maxInFlight` requests outstanding, and applies the
/// retry policy's decision to each answer. Lanes share nothing, so one provider's backlog or
/// retry storm never holds up another.
///
/// Requests are built and sent on a builder queue (`send(_:now:)`), so a batch's
/// encryption runs while the lane's thread does the store's work. Answers arrive on the HTTP
/// client's thread and are only queued there; every store write happens on the lane's own
/// thread, finished deliveries deleted in one write per pass.
final class ProviderLane: @unchecked Sendable {
    struct Settings: Sendable {
        var policy: RetryPolicy
        var maxInFlight: Int
        var claimBatch: Int
        /// The longest the lane sleeps without a wakeup (rows made due by another process or
        /// a lapsed lease are found this way).
        var pollInterval: TimeInterval
        /// Wait before trying to mint credentials again after a failure.
        var credentialRetry: TimeInterval
        /// Upper bound of one request's time; the job's remaining ttl bounds it further.
        var requestTimeout: TimeInterval
        /// Claims still being sent have their lease renewed this often.
        var claimRenewInterval: TimeInterval
    }

    /// One answered (or failed) try, queued for the lane's thread.
    private struct Finished {
        var entryID: Int64
        var job: DeliveryJob
        var generation: Int
        var result: Result<ProviderAnswer, TransportFailure>?
        /// Set when no request could be built.
        var outcome: DeliveryOutcome?
        var sentAt: Double
    }

    let provider: Provider
    private let gateway: any PushGateway
    private let credentials: (any ProviderCredentials)?
    private let store: any PushStore
    private let transport: any DeliveryTransport
    private let settings: Settings
    private let metrics: DeliveryMetrics
    private let health: ProviderHealth
    private let log: LogSink
    private let clock: @Sendable () -> Date

    private let condition = NSCondition()
    /// Builds and sends claimed batches, one at a time, off the lane's thread.
    private let builder: DispatchQueue
    // Guarded by `condition`.
    private var finished: [Finished] = []
    /// Claimed rows being built, or sent and awaiting their answer.
    private var inFlight = 0
    /// Outbox rows with a request outstanding, whose claims must not lapse.
    private var inFlightIDs: Set<Int64> = []
    private var wakeRequested = true
    private var stopping = false
    private var exited = false
    private var started = false

    // Lane thread only.
    private var origins = OriginBackoff()
    private var nextDue: Date?
    private var random = SystemRandomNumberGenerator()
    private var lastGeneration = 0
    private var nextRenewal = Date.distantFuture

    init(provider: Provider, gateway: any PushGateway, credentials: (any ProviderCredentials)?, store: any PushStore,
         transport: any DeliveryTransport, settings: Settings, metrics: DeliveryMetrics, health: ProviderHealth,
         log: LogSink, clock: @escaping @Sendable () -> Date) {
        self.provider = provider
        self.gateway = gateway
        self.credentials = credentials
        self.store = store
        self.transport = transport
        self.settings = settings
        self.metrics = metrics
        self.health = health
        self.log = log
        self.clock = clock
        builder = DispatchQueue(label: "pushnode.delivery.build.\(provider.rawValue)")
    }

    func start() {
        condition.withLock { started = true }
        let thread = Thread { [self] in run() }
        thread.name = "pushnode-delivery-\(provider.rawValue)"
        thread.start()
    }

    /// Claims promptly (a Notify was just committed).
    func wake() {
        condition.withLock {
            wakeRequested = true
            condition.signal()
        }
    }

    /// Stops claiming; waits until the answers in flight are applied or `deadline` (monotonic
    /// seconds) passes. Rows still claimed then become due again when the store next opens.
    func stop(deadline: Double) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        stopping = true
        condition.broadcast()
        while started && !exited {
            let left = deadline - Clocks.monotonicSeconds()
            if left <= 0 { return false }
            _ = condition.wait(until: Date(timeIntervalSinceNow: left))
        }
        return true
    }

    /// The least room worth a claim: while answers trickle in, the lane waits for a quarter
    /// batch of room rather than paying a store round trip (and a build) for a handful of rows.
    private var claimThreshold: Int { max(1, min(settings.claimBatch, settings.maxInFlight) / 4) }

    var requestsInFlight: Int { condition.withLock { inFlight } }

    // MARK: The lane's thread

    private func run() {
        var sleepUntil = Date.distantPast
        while true {
            condition.lock()
            while !hasWork(sleepUntil: sleepUntil) {
                let wait = max(0.001, min(settings.pollInterval, sleepUntil.timeIntervalSince(clock()),
                                          nextRenewal.timeIntervalSince(clock())))
                _ = condition.wait(until: Date(timeIntervalSinceNow: wait))
            }
            if stopping && finished.isEmpty && inFlight == 0 {
                exited = true
                condition.broadcast()
                condition.unlock()
                return
            }
            let batch = finished
            finished.removeAll(keepingCapacity: true)
            let capacity = stopping ? 0 : settings.maxInFlight - inFlight
            if capacity >= claimThreshold { wakeRequested = false }
            let renewing = clock() >= nextRenewal ? inFlightIDs : nil
            condition.unlock()

            if let renewing { renewClaims(renewing) }

            var done: [Int64] = []
            for item in batch { apply(item, completing: &done) }
            if capacity >= claimThreshold {
                sleepUntil = claimAndSend(capacity: capacity)
            }
            commit(done)
            if let due = nextDue { sleepUntil = min(sleepUntil, due) }
        }
    }

    /// Under `condition`: answers to apply, the end of a stop, or room to send and a reason to claim.
    private func hasWork(sleepUntil: Date) -> Bool {
        if !finished.isEmpty { return true }
        if !inFlightIDs.isEmpty && clock() >= nextRenewal { return true }
        if stopping { return inFlight == 0 }
        guard settings.maxInFlight - inFlight >= claimThreshold else { return false }
        return wakeRequested || clock() >= sleepUntil
    }

    /// Claims up to `capacity` due rows and sends them; returns when to look again.
    private func claimAndSend(capacity: Int) -> Date {
        var now = clock()
        if let credentials {
            let ready = credentials.prepare(now: now)
            countRefreshes(credentials)
            guard ready else {
                health.set(provider, .credentialsRefused)
                log("level=warn event=credentials provider=\(provider.rawValue) state=unavailable")
                return now.addingTimeInterval(settings.credentialRetry)
            }
        }
        let limit = min(capacity, settings.claimBatch)
        let claim: OutboxClaim
        do { claim = try store.claimDue(provider: provider, limit: limit, now: now) } catch {
            log("level=error event=outbox_claim provider=\(provider.rawValue) error=\(LogSink.quoted(String(describing: error)))")
            return now.addingTimeInterval(settings.pollInterval)
        }
        if claim.expired > 0 { metrics.deliveries.increment(provider.rawValue, "expired", by: Double(claim.expired)) }
        if claim.orphaned > 0 { metrics.deliveries.increment(provider.rawValue, "orphaned", by: Double(claim.orphaned)) }
        now = clock()
        send(claim.entries, now: now)
        if claim.entries.count + claim.expired + claim.orphaned >= limit { return now }  // more may be due
        var next = now.addingTimeInterval(settings.pollInterval)
        if let due = nextDue {
            if due <= now { nextDue = nil } else { next = min(next, due) }
        }
        return next
    }

    /// Hands a claimed batch to the builder queue, which builds its requests and sends them
    /// while this thread goes on applying answers, completing and claiming: the batch's Web Push
    /// encryption overlaps the store's work instead of taking turns with it. The rows count as
    /// in flight (and have their claims renewed) from here on, so `maxInFlight` still bounds them.
    private func send(_ entries: [OutboxEntry], now: Date) {
        var batch: [OutboxEntry] = []
        batch.reserveCapacity(entries.count)
        for entry in entries {
            if provider == .webpush, !origins.isEmpty, let origin = WebPushGateway.origin(of: entry.job),
               let until = origins.heldUntil(origin, now: now) {
                reschedule(entry.id, at: until)
                continue
            }
            batch.append(entry)
        }
        guard !batch.isEmpty else { return }
        let generation = credentials?.generation ?? 0
        condition.withLock {
            inFlight += batch.count
            inFlightIDs.formUnion(batch.lazy.map(\.id))
            if nextRenewal == .distantFuture { nextRenewal = now.addingTimeInterval(settings.claimRenewInterval) }
        }
        builder.async { [self, batch] in build(batch, generation: generation) }
    }

    /// On the builder queue: the batch's jobs and requests, made in parallel (Web Push
    /// encrypts each), then sent; a request that cannot be built is queued as finished.
    private func build(_ entries: [OutboxEntry], generation: Int) {
        let now = clock()
        let gateway = self.gateway
        let built = ParallelMap.map(entries) { entry -> (DeliveryJob, Result<OutboundRequest, GatewayError>) in
            let job = entry.job
            do throws(GatewayError) { return (job, .success(try gateway.request(for: job, now: now))) } catch {
                return (job, .failure(error))
            }
        }
        for (entry, (job, request)) in zip(entries, built) {
            switch request {
            case .success(let request):
                send(request, entryID: entry.id, job: job, generation: generation, now: now)
            case .failure(let error):
                finish(Finished(entryID: entry.id, job: job, generation: generation, result: nil, outcome: error.outcome,
                                sentAt: Clocks.monotonicSeconds()))
            }
        }
    }

    /// Sends one built request; its row is already counted in flight.
    private func send(_ request: OutboundRequest, entryID id: Int64, job: DeliveryJob, generation: Int, now: Date) {
        let seconds = min(settings.requestTimeout, Double(max(1, job.remainingTTL(at: now))))
        metrics.inFlight.add(1, provider.rawValue)
        let sentAt = Clocks.monotonicSeconds()
        transport.send(request, provider: provider, timeout: .milliseconds(Int64(seconds * 1000))) { [self] result in
            finish(Finished(entryID: id, job: job, generation: generation, result: result, outcome: nil, sentAt: sentAt))
        }
    }

    /// Queues a finished try for the lane's thread and releases its in-flight slot.
    private func finish(_ item: Finished) {
        condition.withLock {
            finished.append(item)
            inFlight -= 1
            inFlightIDs.remove(item.entryID)
            if inFlightIDs.isEmpty { nextRenewal = .distantFuture }
            condition.signal()
        }
    }

    /// Applies the retry policy's decision for one finished try.
    private func apply(_ item: Finished, completing done: inout [Int64]) {
        let now = clock()
        let outcome: DeliveryOutcome
        if let built = item.outcome {
            outcome = built
        } else {
            metrics.inFlight.add(-1, provider.rawValue)
            switch item.result {
            case .success(let answer):
                metrics.sendSeconds.observe(Clocks.monotonicSeconds() - item.sentAt, provider.rawValue)
                outcome = gateway.classify(answer, now: now)
            case .failure(let error):
                outcome = error.outcome
            case nil:
                outcome = TransportFailure.other.outcome
            }
        }
        let decision = settings.policy.decide(outcome, for: item.job, now: now, using: &random)
        perform(decision, item: item, now: now, completing: &done)
    }

    private func perform(_ decision: DeliveryDecision, item: Finished, now: Date, completing done: inout [Int64]) {
        let name = provider.rawValue
        switch decision {
        case .delivered:
            done.append(item.entryID)
            metrics.deliveries.increment(name, "delivered")
            credentials?.accepted(generation: item.generation)
            if health.state(of: provider) != .healthy { health.set(provider, .healthy) }
        case .retry(let at, let reason, let scope):
            if scope == .origin, let origin = WebPushGateway.origin(of: item.job) { origins.hold(origin, until: at) }
            reschedule(item.entryID, at: at)
            metrics.deliveries.increment(name, "retried")
            log("level=info event=delivery provider=\(name) outcome=retried reason=\(reason.code.rawValue)")
        case .dead(let reason, let invalidSince):
            let pruned = (try? store.pruneRegistration(item.job.registration.registrationId,
                                                       notUpdatedAfter: invalidSince ?? .distantFuture)) ?? false
            if pruned { metrics.pruned.increment(name, reason.code.rawValue) }
            done.append(item.entryID)
            metrics.deliveries.increment(name, "dead")
            log("level=info event=delivery provider=\(name) outcome=dead reason=\(reason.code.rawValue) pruned=\(pruned)")
        case .rejected(let reason):
            done.append(item.entryID)
            metrics.deliveries.increment(name, "rejected")
            log("level=warn event=delivery provider=\(name) outcome=rejected reason=\(LogSink.quoted(reason.description))")
        case .misconfigured(let reason):
            done.append(item.entryID)
            metrics.deliveries.increment(name, "rejected")
            health.set(provider, .misconfigured)
            log("level=error event=delivery provider=\(name) outcome=rejected reason=\(LogSink.quoted(reason.description)) health=misconfigured")
        case .expired:
            done.append(item.entryID)
            metrics.deliveries.increment(name, "expired")
        case .refreshCredentials(let reason, let retryAt):
            let renewal = credentials?.refused(generation: item.generation, now: now) ?? .gaveUp
            if let credentials { countRefreshes(credentials) }
            switch renewal {
            case .renewed, .alreadyRenewed:
                reschedule(item.entryID, at: retryAt)
                metrics.deliveries.increment(name, "retried")
            case .gaveUp:
                health.set(provider, .credentialsRefused)
                log("level=error event=credentials provider=\(name) reason=\(reason.code.rawValue) health=credentials_refused")
                // Keep the push: back off as for a transient failure, within attempts and ttl.
                let fallback = settings.policy.decide(.transient(reason, retryAfter: nil), for: item.job, now: now,
                                                      using: &random)
                perform(fallback, item: item, now: now, completing: &done)
            }
        }
    }

    /// Extends the leases of rows still being sent. A row this node no longer holds (its lease
    /// lapsed and another node took it) is logged: its answer will still be applied here.
    private func renewClaims(_ ids: Set<Int64>) {
        let now = clock()
        condition.withLock { nextRenewal = inFlightIDs.isEmpty ? .distantFuture : now.addingTimeInterval(settings.claimRenewInterval) }
        guard !ids.isEmpty else { return }
        do {
            let held = try store.renewClaims(Array(ids), now: now)
            if held.count < ids.count {
                log("level=warn event=claims_lost provider=\(provider.rawValue) count=\(ids.count - held.count)")
            }
        } catch {
            log("level=warn event=claim_renewal_failed provider=\(provider.rawValue) error=\(LogSink.quoted(String(describing: error)))")
        }
    }

    private func reschedule(_ entryID: Int64, at date: Date) {
        do { try store.reschedule(entryID, at: date) } catch {
            log("level=error event=outbox_reschedule provider=\(provider.rawValue) error=\(LogSink.quoted(String(describing: error)))")
        }
        nextDue = min(nextDue ?? date, date)
    }

    private func commit(_ done: [Int64]) {
        guard !done.isEmpty else { return }
        do { try store.complete(done) } catch {
            log("level=error event=outbox_complete provider=\(provider.rawValue) error=\(LogSink.quoted(String(describing: error)))")
        }
    }

    private func countRefreshes(_ credentials: any ProviderCredentials) {
        let generation = credentials.generation
        if generation > lastGeneration {
            metrics.credentialRefreshes.increment(provider.rawValue, by: Double(generation - lastGeneration))
            lastGeneration = generation
        }
    }
}
