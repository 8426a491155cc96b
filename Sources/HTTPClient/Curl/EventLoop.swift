import CCurl
import Dispatch
import Foundation
import PushSupport

/// The one thread that drives libcurl's multi handle: it picks up submitted requests,
/// runs `curl_multi_perform`/`curl_multi_poll`, completes finished transfers, retries
/// those whose connection died, and times out those stuck waiting for a connection.
///
/// Everything except `submit`, `cancellationRequested`, `stats` and `shutdown` runs on
/// that thread, which is why the class can be `@unchecked Sendable`: its unsynchronised
/// state (`active`, `pool`, `gate`) is never touched from anywhere else.
final class EventLoop: @unchecked Sendable {
    private struct Inbox {
        var submissions: [Submission] = []
        /// Some task cancelled its request: look for flagged transfers.
        var cancellationRequested = false
        var stopping = false
    }

    private let configuration: HTTPClientConfiguration
    private let multi: CurlMulti
    private let inbox = Protected(Inbox())
    private let counters = Protected(HTTPClientStats())
    private let thread = LoopThread()
    private let clock = ContinuousClock()

    // Loop-thread state.
    private var active: [UnsafeMutableRawPointer: Transfer] = [:]
    private var pool: [CurlEasy] = []
    private var gate = FreshConnectionGate<Transfer>()
    private var lastSweep: ContinuousClock.Instant

    /// How late past its deadline a transfer may be before the loop fails it itself
    /// (curl times out running transfers, but not ones queued for a connection).
    private static let sweepGrace: Duration = .milliseconds(200)
    private static let sweepInterval: Duration = .milliseconds(100)

    init(configuration: HTTPClientConfiguration) throws(TransportError) {
        self.configuration = configuration
        multi = try CurlMulti(
            maxConnectionsPerHost: configuration.maxConnectionsPerHost,
            maxConcurrentStreams: configuration.maxConcurrentStreams
        )
        lastSweep = clock.now
    }

    /// Starts the loop thread.
    func start() {
        thread.start(name: "pushnode-http") { [self] in run() }
    }

    // MARK: - Any thread

    func submit(
        _ request: ClientRequest,
        cancellation: CancellationFlag? = nil,
        completion: @escaping Transfer.Completion
    ) {
        let deadline = clock.now + (request.timeout ?? configuration.requestTimeout)
        let submission = Submission(request: request, deadline: deadline, cancellation: cancellation, completion: completion)
        counters.withLock { $0.inFlight += 1 }
        let (accepted, needsWakeup) = inbox.withLock { inbox -> (Bool, Bool) in
            guard !inbox.stopping else { return (false, false) }
            inbox.submissions.append(submission)
            // One wakeup per batch: the loop drains the whole inbox when it wakes.
            return (true, inbox.submissions.count == 1)
        }
        guard accepted else {
            complete(completion, .failure(.cancelled))
            return
        }
        if needsWakeup { multi.wakeup() }
    }

    /// A task set the `CancellationFlag` of one of its requests.
    func cancellationRequested() {
        inbox.withLock { $0.cancellationRequested = true }
        multi.wakeup()
    }

    var stats: HTTPClientStats {
        counters.withLock { $0 }
    }

    /// Stops the loop: queued and in-flight requests complete with `.cancelled`.
    /// Waits for the thread to end unless called from it (e.g. inside a completion).
    func shutdown() {
        let alreadyStopping = inbox.withLock { inbox -> Bool in
            defer { inbox.stopping = true }
            return inbox.stopping
        }
        guard !alreadyStopping else { return }
        multi.wakeup()
        thread.waitForExit()
    }

    // MARK: - Loop thread

    private func run() {
        while true {
            let (batch, cancelling, stopping) = inbox.withLock { inbox -> ([Submission], Bool, Bool) in
                defer {
                    inbox.submissions.removeAll(keepingCapacity: true)
                    inbox.cancellationRequested = false
                }
                return (inbox.submissions, inbox.cancellationRequested, inbox.stopping)
            }
            if stopping {
                for submission in batch { complete(submission.completion, .failure(.cancelled)) }
                break
            }
            for submission in batch { start(submission) }
            if cancelling { removeCancelledTransfers() }
            multi.perform()
            for (handle, result) in multi.completedTransfers() { finish(handle, result) }
            sweepOverdueTransfers()
            multi.poll(timeoutMs: active.isEmpty ? 1000 : Self.sweepInterval.wholeMilliseconds)
        }
        let remaining = Array(active.values) + gate.removeAll()
        active.removeAll()
        for transfer in remaining {
            transfer.leadsFreshConnection = false
            abandon(transfer, with: .cancelled)
        }
        pool.removeAll()
    }

    private func start(_ submission: Submission) {
        let transfer = Transfer(
            request: submission.request,
            deadline: submission.deadline,
            maxResponseBytes: configuration.maxResponseBytes,
            completion: submission.completion
        )
        transfer.cancellation = submission.cancellation
        if submission.cancellation?.isCancelled == true {
            conclude(transfer, .failure(.cancelled))
            return
        }
        launch(transfer)
    }

    /// Fails the transfers whose task was cancelled, running or parked.
    private func removeCancelledTransfers() {
        let cancelled = active.filter { $0.value.cancellation?.isCancelled == true }
        for (handle, transfer) in cancelled {
            active.removeValue(forKey: handle)
            abandon(transfer, with: .cancelled)
        }
        for transfer in gate.removeWaiters(where: { $0.cancellation?.isCancelled == true }) {
            conclude(transfer, .failure(.cancelled))
        }
    }

    /// Configures an easy handle for the transfer's next attempt and hands it to curl.
    private func launch(_ transfer: Transfer) {
        do throws(TransportError) {
            let easy: CurlEasy
            if let existing = transfer.easy {
                easy = existing
            } else {
                easy = try takeHandle()
                transfer.easy = easy
            }
            transfer.attempts += 1
            try transfer.configure(easy, configuration: configuration, now: clock.now)
            try multi.add(easy)
            active[easy.handle] = transfer
        } catch {
            conclude(transfer, .failure(error))
        }
    }

    private func finish(_ handle: UnsafeMutableRawPointer, _ result: CURLcode) {
        guard let transfer = active.removeValue(forKey: handle), let easy = transfer.easy else { return }
        multi.remove(easy)
        let connections = easy.info(CURLINFO_NUM_CONNECTS)
        counters.withLock { $0.connectionsOpened += connections }

        if result == CURLE_OK {
            conclude(transfer, .success(transfer.response(from: easy)))
        } else if transfer.exceededBodyCap {
            conclude(transfer, .failure(.tooLarge))
        } else if transfer.refusedAddress, result == CURLE_COULDNT_CONNECT {
            conclude(transfer, .failure(.forbiddenAddress))
        } else {
            let message = easy.errorMessage(for: result)
            if TransportError.isConnectionLoss(result), !transfer.sawStatusLine, transfer.attempts == 1 {
                retry(transfer, streamOnly: TransportError.isStreamReset(result, message: message))
            } else {
                conclude(transfer, .failure(TransportError(curlCode: result, message: message)))
            }
        }
    }

    /// Sends a request once more after its stream or connection died before an answer.
    /// A reset stream leaves the connection usable; otherwise the retry needs a fresh
    /// connection, opened by one leader per origin (see `FreshConnectionGate`).
    private func retry(_ transfer: Transfer, streamOnly: Bool) {
        counters.withLock { $0.retries += 1 }
        transfer.easy?.reset()
        if streamOnly {
            launch(transfer)
            return
        }
        switch gate.admit(transfer, origin: transfer.origin) {
        case .lead:
            transfer.needsFreshConnection = true
            transfer.leadsFreshConnection = true
            launch(transfer)
        case .follow:
            break
        }
    }

    /// Fails transfers that outlived their deadline without curl noticing (queued for a
    /// connection or stream slot, where curl's own timeout does not run, or parked
    /// behind a fresh connection).
    private func sweepOverdueTransfers() {
        let now = clock.now
        guard now - lastSweep >= Self.sweepInterval else { return }
        lastSweep = now
        let overdue = active.filter { now - $0.value.deadline > Self.sweepGrace }
        for (handle, transfer) in overdue {
            active.removeValue(forKey: handle)
            abandon(transfer, with: .timedOut)
        }
        for transfer in gate.removeWaiters(where: { now - $0.deadline > Self.sweepGrace }) {
            conclude(transfer, .failure(.timedOut))
        }
    }

    private func abandon(_ transfer: Transfer, with error: TransportError) {
        if let easy = transfer.easy {
            multi.remove(easy)
            // A connection it opened stays open for the next request: count it here too.
            let connections = easy.info(CURLINFO_NUM_CONNECTS)
            counters.withLock { $0.connectionsOpened += connections }
        }
        conclude(transfer, .failure(error))
    }

    /// Ends a transfer: recycles its handle, lets retries parked behind it go, and
    /// calls its completion.
    private func conclude(_ transfer: Transfer, _ result: Result<ClientResponse, TransportError>) {
        recycle(transfer)
        complete(transfer.completion, result)
        if transfer.leadsFreshConnection {
            transfer.leadsFreshConnection = false
            for follower in gate.leaderFinished(origin: transfer.origin) { launch(follower) }
        }
    }

    private func takeHandle() throws(TransportError) -> CurlEasy {
        if let easy = pool.popLast() { return easy }
        return try CurlEasy()
    }

    /// Returns the transfer's easy handle to the pool (reset) and frees its header list.
    private func recycle(_ transfer: Transfer) {
        transfer.releaseRequestResources()
        guard let easy = transfer.easy else { return }
        transfer.easy = nil
        guard pool.count < configuration.handlePoolSize else { return }
        easy.reset()
        pool.append(easy)
    }

    private func complete(_ completion: Transfer.Completion, _ result: Result<ClientResponse, TransportError>) {
        counters.withLock { $0.finish(result) }
        completion(result)
    }
}
