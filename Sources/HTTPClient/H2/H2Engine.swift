import CNGHTTP2
import Foundation
import Glibc
import PushNet
import PushSupport

/// The HTTP/2 engine: every `https://` request the client sends, over nghttp2 and OpenSSL on
/// one epoll thread. The pool's rules — stream budgets, when to open and close connections,
/// re-sending lost streams, GOAWAY, PINGs, idle connections, the HTTP/1.1 handover — are
/// `H2PoolStateMachine`'s; this class feeds it what the sockets and nghttp2 report and carries
/// out its actions. Requests it hands over go to libcurl (`fallback`) with the time they have
/// left.
final class H2Engine: @unchecked Sendable {
    typealias Fallback = @Sendable (ClientRequest, CancellationFlag?, @escaping H2Request.Completion) -> Void

    private struct Inbox {
        var submissions: [(Submission, H2Target)] = []
        var resolved: [(connection: UInt64, resolution: HostResolution)] = []
        var cancellationRequested = false
        var stopping = false
    }

    private static let sweepInterval: Duration = .milliseconds(100)

    private let configuration: HTTPClientConfiguration
    private let tls: TLSClientContext
    private let resolver: any HostResolving
    private let fallback: Fallback
    private let inbox = Protected(Inbox())
    private let counters = Protected(HTTPClientStats())
    private let thread = LoopThread()
    private let clock = ContinuousClock()
    private let epoll: Int32
    private let wakeFD: Int32

    // The engine thread's state.
    private var pool: H2PoolStateMachine
    private var requests: [UInt64: H2Request] = [:]
    private var connections: [UInt64: H2Connection] = [:]
    /// Where each origin's connections go (its first request's target); an origin the pool
    /// forgot is dropped at the next sweep, so this holds no more origins than the pool does.
    private var targets: [String: H2Target] = [:]
    private var registered: [UInt64: (fd: Int32, events: UInt32)] = [:]
    private var touched: Set<UInt64> = []
    private var nextRequestID: UInt64 = 1
    private var lastSweep: ContinuousClock.Instant

    init(configuration: HTTPClientConfiguration, resolver: any HostResolving = CachingResolver.shared,
         fallback: @escaping Fallback) throws(TransportError) {
        self.configuration = configuration
        self.resolver = resolver
        self.fallback = fallback
        pool = H2PoolStateMachine(settings: .init(configuration))
        tls = try TLSClientContext(caFile: configuration.caFile)
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard epoll >= 0, wakeFD >= 0 else { throw .other(code: -1, message: "epoll setup failed") }
        var event = pushnode_epoll_event(EPOLLIN.rawValue, 0)
        epoll_ctl(epoll, EPOLL_CTL_ADD, wakeFD, &event)
        lastSweep = clock.now
    }

    func start() {
        thread.start(name: "pushnode-h2") { [self] in run() }
    }

    // MARK: Any thread

    func submit(_ request: ClientRequest, target: H2Target, cancellation: CancellationFlag?,
                completion: @escaping H2Request.Completion) {
        let deadline = clock.now + (request.timeout ?? configuration.requestTimeout)
        counters.withLock { $0.inFlight += 1 }
        let wake = inbox.withLock { inbox -> Bool? in
            guard !inbox.stopping else { return nil }
            inbox.submissions.append((Submission(request: request, deadline: deadline, cancellation: cancellation,
                                                 completion: completion), target))
            return inbox.submissions.count == 1
        }
        switch wake {
        case nil: complete(completion, .failure(.cancelled))
        case true?: wakeUp()
        case false?: break
        }
    }

    func cancellationRequested() {
        inbox.withLock { $0.cancellationRequested = true }
        wakeUp()
    }

    var stats: HTTPClientStats { counters.withLock { $0 } }

    func shutdown() {
        let already = inbox.withLock { inbox -> Bool in
            defer { inbox.stopping = true }
            return inbox.stopping
        }
        guard !already else { return }
        wakeUp()
        thread.waitForExit()
    }

    private func wakeUp() {
        var one: UInt64 = 1
        _ = write(wakeFD, &one, 8)
    }

    // MARK: The engine's thread

    private func run() {
        var events = [epoll_event](repeating: epoll_event(), count: 256)
        while true {
            let (batch, resolved, cancelling, stopping) = inbox.withLock { inbox in
                defer {
                    inbox.submissions.removeAll(keepingCapacity: true)
                    inbox.resolved.removeAll()
                    inbox.cancellationRequested = false
                }
                return (inbox.submissions, inbox.resolved, inbox.cancellationRequested, inbox.stopping)
            }
            if stopping {
                for (submission, _) in batch { complete(submission.completion, .failure(.cancelled)) }
                break
            }
            for (submission, target) in batch { accept(submission, target) }
            for (connection, resolution) in resolved { connect(connection, resolution) }
            if cancelling { cancelFlagged() }
            syncTouched()

            let timeout = pool.isIdle ? 1000 : Int32(Self.sweepInterval.wholeMilliseconds)
            let count = events.withUnsafeMutableBufferPointer { epoll_wait(epoll, $0.baseAddress, Int32($0.count), timeout) }
            for index in 0..<max(0, Int(count)) {
                let id = withUnsafePointer(to: &events[index]) { pushnode_epoll_data($0) }
                let mask = withUnsafePointer(to: &events[index]) { pushnode_epoll_events($0) }
                if id == 0 {
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                    continue
                }
                guard let connection = connections[id] else { continue }
                connection.handle(events: mask)
                touched.insert(id)
            }
            let now = clock.now
            if now - lastSweep >= Self.sweepInterval {
                lastSweep = now
                cancelFlagged()
                perform(pool.tick(now: now))
                if targets.count > pool.origins.count { targets = targets.filter { pool.origins[$0.key] != nil } }
                let known = targets.count
                counters.withLock { $0.originsKnown = known }
            }
            syncTouched()
        }
        perform(pool.stop())
        Glibc.close(epoll)
        Glibc.close(wakeFD)
    }

    private func accept(_ submission: Submission, _ target: H2Target) {
        guard submission.request.headers.allSatisfy({ HeaderRules.isValid(name: $0.0) && HeaderRules.isValid(value: $0.1) }) else {
            return complete(submission.completion, .failure(.invalidHeader))
        }
        if submission.cancellation?.isCancelled == true { return complete(submission.completion, .failure(.cancelled)) }
        let request = H2Request(id: nextRequestID, submission, target: target)
        nextRequestID += 1
        requests[request.id] = request
        let origin = target.origin
        if targets[origin] == nil { targets[origin] = target }
        perform(pool.submit(request.id, origin: origin, deadline: request.deadline, now: clock.now))
    }

    /// Fails the requests whose task was cancelled (and resets their streams).
    private func cancelFlagged() {
        let cancelled = requests.values.filter { $0.cancellation?.isCancelled == true }.map(\.id)
        if !cancelled.isEmpty { perform(pool.cancel(cancelled, now: clock.now)) }
    }

    // MARK: Carrying out the pool's actions

    private func perform(_ actions: [H2PoolStateMachine.Action]) {
        for action in actions {
            switch action {
            case .open(let id, let origin):
                guard let target = targets[origin] else { continue }
                open(id, target)
            case .openStream(let id, let connectionID):
                guard let request = requests[id], let connection = connections[connectionID] else { continue }
                if let stream = connection.submit(request) {
                    pool.streamOpened(id, on: connectionID, stream: stream)
                    touched.insert(connectionID)
                } else {
                    perform(pool.streamNotOpened(id, on: connectionID, now: clock.now))
                }
            case .resetStream(let id, let connectionID):
                guard let request = requests[id], let connection = connections[connectionID] else { continue }
                connection.cancel(request)
                touched.insert(connectionID)
            case .succeed(let id):
                guard let request = requests.removeValue(forKey: id) else { continue }
                complete(request.completion, .success(request.response))
            case .fail(let id, let error):
                guard let request = requests.removeValue(forKey: id) else { continue }
                complete(request.completion, .failure(error))
            case .handOver(let id):
                guard let request = requests.removeValue(forKey: id) else { continue }
                handOver(request)
            case .close(let id, let error):
                connections[id]?.close(error)
            case .ping(let id):
                connections[id]?.ping()
                touched.insert(id)
            case .retried:
                counters.withLock { $0.retries += 1 }
            }
        }
    }

    private func open(_ id: UInt64, _ target: H2Target) {
        if let address = target.address {
            return connect(id, .addresses([address]))
        }
        let host = target.host
        let resolver = self.resolver
        // getaddrinfo blocks: a thread of its own (once per new connection), not a pool thread
        // that callers blocking on an answer could all be holding.
        let thread = Thread { [self] in
            let resolution = resolver.resolve(host)
            inbox.withLock { $0.resolved.append((id, resolution)) }
            wakeUp()
        }
        thread.name = "pushnode-h2-dns"
        thread.start()
    }

    /// Starts the connection to the resolved addresses (the public ones only, when the client
    /// refuses private addresses: the `AddressClass` rule libcurl's path applies too).
    private func connect(_ id: UInt64, _ resolution: HostResolution) {
        guard let origin = pool.connections[id]?.origin, let target = targets[origin] else { return }
        guard case .addresses(let all) = resolution, !all.isEmpty else {
            return perform(pool.connectFailed(id, .connectFailed, now: clock.now))
        }
        let addresses = configuration.refusePrivateAddresses ? all.filter { AddressClass.of($0).isPubliclyRoutable } : all
        if addresses.isEmpty { return perform(pool.connectFailed(id, .forbiddenAddress, now: clock.now)) }
        let connection = H2Connection(id: id, target: target, addresses: addresses, tls: tls,
                                      configuration: configuration, delegate: self)
        if let error = connection.start() { return perform(pool.connectFailed(id, error, now: clock.now)) }
        counters.withLock { $0.connectionsOpened += 1 }
        connections[id] = connection
        pool.connectionStarted(id, now: clock.now)
        touched.insert(id)
    }

    /// The origin speaks HTTP/1.1: the request goes to libcurl with the time it has left.
    private func handOver(_ request: H2Request) {
        var forwarded = request.request
        forwarded.timeout = max(.milliseconds(1), request.deadline - clock.now)
        counters.withLock { $0.inFlight -= 1 }
        fallback(forwarded, request.cancellation, request.completion)
    }

    /// Flushes the connections that did something and brings epoll up to date with them.
    private func syncTouched() {
        while !touched.isEmpty {
            let ids = touched
            touched.removeAll()
            for id in ids {
                guard let connection = connections[id] else { continue }
                connection.flush()
                register(connection)
            }
        }
    }

    private func register(_ connection: H2Connection) {
        guard connection.state != .closed, connection.fd >= 0 else {
            registered[connection.id] = nil
            return
        }
        let interest = connection.interest
        var event = pushnode_epoll_event(interest, connection.id)
        if let current = registered[connection.id], current.fd == connection.fd {
            guard current.events != interest else { return }
            epoll_ctl(epoll, EPOLL_CTL_MOD, connection.fd, &event)
        } else {
            epoll_ctl(epoll, EPOLL_CTL_ADD, connection.fd, &event)
        }
        registered[connection.id] = (connection.fd, interest)
    }

    private func complete(_ completion: H2Request.Completion, _ result: Result<ClientResponse, TransportError>) {
        counters.withLock { $0.finish(result) }
        completion(result)
    }
}

extension H2Engine: H2ConnectionDelegate {
    func connection(_ connection: H2Connection, reported event: H2ConnectionEvent) {
        let now = clock.now
        switch event {
        case .heard: pool.heard(connection.id, now: now)
        case .settings(let limit): perform(pool.settingsReceived(connection.id, maxConcurrentStreams: limit, now: now))
        case .ended(let request, let stream, let end): perform(pool.streamEnded(request.id, on: connection.id, stream: stream, end, now: now))
        case .goaway(let last): perform(pool.goaway(connection.id, lastStreamID: last, now: now))
        case .pingAcknowledged: pool.pingAcknowledged(connection.id, now: now)
        }
    }

    func connectionClosed(_ connection: H2Connection, unanswered: [H2Request], error: TransportError) {
        forget(connection)
        let answered = Set(unanswered.filter(\.answered).map(\.id))
        perform(pool.closed(connection.id, error, answered: answered, now: clock.now))
    }

    func connectionSpeaksHTTP1(_ connection: H2Connection) {
        forget(connection)
        perform(pool.speaksHTTP1(connection.id, now: clock.now))
    }

    private func forget(_ connection: H2Connection) {
        connections[connection.id] = nil
        registered[connection.id] = nil
    }
}
