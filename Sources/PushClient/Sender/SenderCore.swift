import Foundation
import PushCrypto
import PushProtocol
import PushSupport

/// The queue and background worker behind `PushSender`. One worker task takes work in order —
/// retries that came due first, then new calls — so requests go out one at a time; a request
/// waiting to retry sleeps on its own timer and never holds up the others.
final class SenderCore: Sendable {
    let configuration: PushSender.Configuration
    private let transport: any NodeTransport
    private let account: AccountKey
    private let capabilities: CapabilitiesCache
    private let clock: any PushClock
    private let log: PushLog
    private let state: Protected<State>
    private let worker = Protected<Task<Void, Never>?>(nil)

    private struct State {
        var queue: BoundedQueue<SendJob>
        /// Requests whose retry pause is over.
        var ready: [PreparedRequest] = []
        /// Accepted units not yet finished: queued calls, requests in flight or waiting to retry.
        var outstanding = PendingWork()
        var counters = PushSender.Counters()
        var accepting = true
        var stopWhenIdle = false
        var workerWaiter: CheckedContinuation<Void, Never>?
    }

    private enum Next {
        case job(SendJob)
        case retry(PreparedRequest)
        case wait
        case stop
    }

    init(transport: any NodeTransport, account: AccountKey, configuration: PushSender.Configuration,
         capabilities: CapabilitiesCache, clock: any PushClock, log: PushLog) {
        self.transport = transport
        self.account = account
        self.configuration = configuration
        self.capabilities = capabilities
        self.clock = clock
        self.log = log
        self.state = Protected(State(queue: BoundedQueue(capacity: configuration.queueCapacity)))
    }

    func start() {
        worker.withLock { $0 = Task { await self.run() } }
    }

    var counters: PushSender.Counters { state.withLock { $0.counters } }

    // MARK: Calls

    /// Queues a call; never blocks beyond a short lock. False when dropped.
    func enqueue(_ job: SendJob) -> Bool {
        let dropped: Int? = state.withLock { s in
            guard s.accepting, s.outstanding.count < configuration.queueCapacity, s.queue.push(job) else {
                s.counters.dropped += 1
                return s.counters.dropped
            }
            s.outstanding.add()
            s.counters.accepted += 1
            return nil
        }
        if let dropped {
            // One line for the first drop and then every 1000th, not one per call under overload.
            if dropped == 1 || dropped % 1000 == 0 {
                log.event("push_dropped", [("reason", "queue_full"), ("dropped_total", "\(dropped)")])
            }
            return false
        }
        wakeWorker()
        return true
    }

    func flush() async {
        await state.waitUntilIdle(\.outstanding)
    }

    func shutdown() async {
        state.withLock { $0.accepting = false }
        await flush()
        stopWhenIdle()
        await worker.withLock { $0 }?.value
    }

    /// Lets the worker end once nothing is queued.
    func stopWhenIdle() {
        state.withLock {
            $0.accepting = false
            $0.stopWhenIdle = true
        }
        wakeWorker()
    }

    // MARK: Worker

    private func run() async {
        while true {
            switch await next() {
            case .job(let job): await process(job)
            case .retry(let request): await attempt(request)
            case .stop: return
            case .wait: continue
            }
        }
    }

    private func next() async -> Next {
        let next = state.withLock { s -> Next in
            if !s.ready.isEmpty { return .retry(s.ready.removeFirst()) }
            if let job = s.queue.popFirst() { return .job(job) }
            return s.stopWhenIdle ? .stop : .wait
        }
        guard case .wait = next else { return next }
        await withCheckedContinuation { (c: CheckedContinuation<Void, Never>) in
            let now = state.withLock { s -> Bool in
                if !s.ready.isEmpty || !s.queue.isEmpty || s.stopWhenIdle { return true }
                s.workerWaiter = c
                return false
            }
            if now { c.resume() }
        }
        return .wait
    }

    private func wakeWorker() {
        let waiter = state.withLock { s -> CheckedContinuation<Void, Never>? in
            defer { s.workerWaiter = nil }
            return s.workerWaiter
        }
        waiter?.resume()
    }

    /// Marks one unit finished and wakes `flush()` callers when nothing is outstanding.
    private func finish() {
        state.finishOne(\.outstanding)
    }

    private func process(_ job: SendJob) async {
        let limits = await capabilities.limits()
        switch NotifyPlanner.plan(job, account: account, limits: limits,
                                   providerLimit: configuration.providerPayloadLimit) {
        case .failure(let failure):
            state.withLock { $0.counters.failed[failure.name, default: 0] += 1 }
            log.event("push_failed", [("kind", job.kindName), ("reason", failure.name),
                                      ("max_payload_bytes", "\(limits.maxPayloadBytes)")])
            finish()
        case .success(let plan):
            if let step = plan.step, step != .full {
                state.withLock { $0.counters.shrunk += 1 }
                log.event("push_shrunk", [("kind", job.kindName), ("step", step.rawValue),
                                          ("max_payload_bytes", "\(limits.maxPayloadBytes)")])
            }
            guard !plan.requests.isEmpty else { return finish() }
            state.withLock { $0.outstanding.add(plan.requests.count - 1) }
            let replannable = plan.requests.count == 1 && !job.replanned ? job : nil
            for request in plan.requests {
                await attempt(PreparedRequest(path: request.path, body: request.body, kindName: job.kindName,
                                              schedule: RetrySchedule(policy: configuration.retry),
                                              replannable: replannable))
            }
        }
    }

    /// One try; then finished, a retry timer, a re-plan (once, after `payload.too_large`), or a failure.
    private func attempt(_ request: PreparedRequest) async {
        var request = request
        var answer: NotifyResponse?
        let outcome: AttemptOutcome
        do {
            let response = try await transport.send(method: "POST", path: request.path, query: nil, body: request.body)
            outcome = AttemptOutcome.classify(response)
            if outcome == .success { answer = try? JSON.decode(NotifyResponse.self, from: response.body) }
        } catch {
            outcome = .networkError
        }

        switch request.schedule.record(outcome, now: clock.now()) {
        case .finished:
            state.withLock {
                if answer?.duplicate == true { $0.counters.duplicate += 1 } else { $0.counters.sent += 1 }
            }
            finish()
        case .retry(let pause):
            state.withLock { $0.counters.retried += 1 }
            let waiting = request
            Task {
                try? await self.clock.sleep(for: pause)
                self.state.withLock { $0.ready.append(waiting) }
                self.wakeWorker()
            }
        case .giveUp(let reason):
            if case .rejected(413, let code) = reason, code != "request.too_large", var job = request.replannable {
                // The node's limit is below what we assumed: learn it and plan this call once more.
                await capabilities.invalidate()
                job.replanned = true
                log.event("push_replanned", [("kind", job.kindName), ("reason", "payload_too_large")])
                return await process(job)
            }
            var fields = [("kind", request.kindName), ("reason", reason.name),
                          ("attempts", "\(request.schedule.attempts)")]
            if case let .rejected(status, code) = reason {
                fields.append(("status", "\(status)"))
                if let code { fields.append(("code", code.rawValue)) }
            }
            state.withLock { $0.counters.failed[reason.name, default: 0] += 1 }
            log.event("push_failed", fields)
            finish()
        }
    }
}
