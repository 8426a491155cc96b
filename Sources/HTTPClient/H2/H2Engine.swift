import CNGHTTP2
import Dispatch
import Foundation
import Glibc
import PushNet
import PushSupport

/// The HTTP/2 engine: every `https://` request the client sends, over nghttp2 and OpenSSL on
/// one epoll thread. Per origin it keeps up to `maxConnectionsPerHost` connections and a FIFO of
/// requests waiting for a stream; a stream is opened only when the server's
/// `SETTINGS_MAX_CONCURRENT_STREAMS` leaves room, so a request never waits inside a
/// connection it cannot move out of.
///
/// A request whose stream ended before an answer — the connection died, a GOAWAY left it
/// unprocessed, RST_STREAM — is sent again at once, ahead of the queue, on a connection that
/// can take it (a fresh one when the old is gone): after `REFUSED_STREAM` (never processed, RFC
/// 9113 §8.7) until it was refused `refusedAttempts` times, after any other loss once. Those
/// retries are counted in
/// `HTTPClientStats.retries`, apart from the answers.
///
/// An origin whose server picks HTTP/1.1 in ALPN is remembered, and its requests go to
/// libcurl (`fallback`) from then on.
final class H2Engine: @unchecked Sendable {
    typealias Fallback = @Sendable (ClientRequest, CancellationFlag?, @escaping H2Request.Completion) -> Void

    private struct Submission {
        let request: ClientRequest
        let target: H2Target
        let deadline: ContinuousClock.Instant
        let cancellation: CancellationFlag?
        let completion: H2Request.Completion
    }

    private struct Inbox {
        var submissions: [Submission] = []
        var resolved: [(origin: String, resolution: HostResolution)] = []
        var cancellationRequested = false
        var stopping = false
    }

    /// One origin's connections and queue; on the engine's thread.
    private final class Origin {
        let target: H2Target
        var connections: [H2Connection] = []
        var waiting = RequestQueue()
        var resolving = false
        var speaksHTTP1 = false
        init(target: H2Target) { self.target = target }
    }

    static let refusedAttempts = 3
    static let lostAttempts = 2
    private static let sweepInterval: Duration = .milliseconds(100)

    private let configuration: HTTPClientConfiguration
    private let tls: TLSClientContext
    private let resolver: any HostResolving
    private let fallback: Fallback
    private let inbox = Protected(Inbox())
    private let counters = Protected(HTTPClientStats())
    private let exited = DispatchSemaphore(value: 0)
    private let loopThread = Protected<pthread_t?>(nil)
    private let clock = ContinuousClock()
    private let epoll: Int32
    private let wakeFD: Int32

    // The engine thread's state.
    private var origins: [String: Origin] = [:]
    private var connections: [UInt64: H2Connection] = [:]
    private var registered: [UInt64: (fd: Int32, events: UInt32)] = [:]
    private var touched: Set<UInt64> = []
    private var nextID: UInt64 = 1
    private var lastSweep: ContinuousClock.Instant

    init(configuration: HTTPClientConfiguration, resolver: any HostResolving = SystemHostResolver(),
         fallback: @escaping Fallback) throws(TransportError) {
        self.configuration = configuration
        self.resolver = resolver
        self.fallback = fallback
        tls = try TLSClientContext(caFile: configuration.caFile)
        epoll = epoll_create1(Int32(EPOLL_CLOEXEC))
        wakeFD = eventfd(0, Int32(EFD_NONBLOCK | EFD_CLOEXEC))
        guard epoll >= 0, wakeFD >= 0 else { throw .other(code: -1, message: "epoll setup failed") }
        var event = pushnode_epoll_event(EPOLLIN.rawValue, 0)
        epoll_ctl(epoll, EPOLL_CTL_ADD, wakeFD, &event)
        lastSweep = clock.now
    }

    func start() {
        let thread = Thread { [self] in
            loopThread.withLock { $0 = pthread_self() }
            run()
            exited.signal()
        }
        thread.name = "pushnode-h2"
        thread.start()
    }

    // MARK: Any thread

    func submit(_ request: ClientRequest, target: H2Target, cancellation: CancellationFlag?,
                completion: @escaping H2Request.Completion) {
        let deadline = clock.now + (request.timeout ?? configuration.requestTimeout)
        counters.withLock { $0.inFlight += 1 }
        let wake = inbox.withLock { inbox -> Bool? in
            guard !inbox.stopping else { return nil }
            inbox.submissions.append(Submission(request: request, target: target, deadline: deadline,
                                                cancellation: cancellation, completion: completion))
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
        let onLoop = loopThread.withLock { id in id.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
        if !onLoop { exited.wait() }
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
                for submission in batch { complete(submission.completion, .failure(.cancelled)) }
                break
            }
            var pumped: Set<String> = []
            for submission in batch { accept(submission, into: &pumped) }
            for (origin, resolution) in resolved { connect(origin, resolution) }
            for origin in pumped { pump(origin) }
            if cancelling { sweep(cancelling: true) }
            syncTouched()

            let idle = origins.values.allSatisfy { $0.waiting.isEmpty && $0.connections.allSatisfy { $0.streams.isEmpty } }
            let count = events.withUnsafeMutableBufferPointer {
                epoll_wait(epoll, $0.baseAddress, Int32($0.count), idle ? 1000 : Int32(Self.sweepInterval.wholeMilliseconds))
            }
            let now = clock.now
            for index in 0..<max(0, Int(count)) {
                let id = withUnsafePointer(to: &events[index]) { pushnode_epoll_data($0) }
                let mask = withUnsafePointer(to: &events[index]) { pushnode_epoll_events($0) }
                if id == 0 {
                    var value: UInt64 = 0
                    _ = read(wakeFD, &value, 8)
                    continue
                }
                guard let connection = connections[id] else { continue }
                connection.handle(events: mask, now: now)
                touched.insert(id)
            }
            if now - lastSweep >= Self.sweepInterval {
                lastSweep = now
                sweep(cancelling: false)
            }
            syncTouched()
        }
        stopEverything()
    }

    private func accept(_ submission: Submission, into pumped: inout Set<String>) {
        guard submission.request.headers.allSatisfy({ HeaderRules.isValid(name: $0.0) && HeaderRules.isValid(value: $0.1) }) else {
            return complete(submission.completion, .failure(.invalidHeader))
        }
        let request = H2Request(request: submission.request, target: submission.target, deadline: submission.deadline,
                                cancellation: submission.cancellation, completion: submission.completion)
        if submission.cancellation?.isCancelled == true { return complete(request.completion, .failure(.cancelled)) }
        let key = submission.target.origin
        let origin = origins[key] ?? Origin(target: submission.target)
        origins[key] = origin
        origin.waiting.append(request)
        pumped.insert(key)
    }

    /// Opens streams for the origin's waiting requests while its connections have room, and a
    /// connection when none can take them and the origin has fewer than the limit.
    private func pump(_ key: String) {
        guard let origin = origins[key] else { return }
        if origin.speaksHTTP1 { return handOver(origin) }
        while !origin.waiting.isEmpty {
            guard let connection = origin.connections.first(where: { $0.freeStreams > 0 }) else { break }
            let request = origin.waiting.removeFirst()
            if connection.submit(request) {
                touched.insert(connection.id)
            } else {
                complete(request.completion, .failure(.other(code: -1, message: "nghttp2 refused the request")))
            }
        }
        guard !origin.waiting.isEmpty, !origin.resolving else { return }
        let usable = origin.connections.filter(\.isUsable)
        let opening = usable.contains { $0.state != .open || !$0.settingsReceived }
        guard !opening, usable.count < max(1, configuration.maxConnectionsPerHost) else { return }
        open(origin, key: key)
    }

    private func open(_ origin: Origin, key: String) {
        if let address = origin.target.address {
            return connect(key, .addresses([address]))
        }
        origin.resolving = true
        let host = origin.target.host
        let resolver = self.resolver
        // getaddrinfo blocks: a thread of its own (once per new connection), not a pool thread
        // that callers blocking on an answer could all be holding.
        let thread = Thread { [self] in
            let resolution = resolver.resolve(host)
            inbox.withLock { $0.resolved.append((key, resolution)) }
            wakeUp()
        }
        thread.name = "pushnode-h2-dns"
        thread.start()
    }

    /// Starts a connection to the resolved addresses (the public ones only, when the client
    /// refuses private addresses: the same `Transfer.isPubliclyRoutable` rule as libcurl's path).
    private func connect(_ key: String, _ resolution: HostResolution) {
        guard let origin = origins[key] else { return }
        origin.resolving = false
        guard case .addresses(let all) = resolution, !all.isEmpty else { return failWaiting(origin, .connectFailed) }
        var addresses = all
        if configuration.refusePrivateAddresses {
            addresses = all.filter { address in
                switch address {
                case .v4(let bytes), .v6(let bytes): Transfer.isPubliclyRoutable(bytes)
                }
            }
            if addresses.isEmpty { return failWaiting(origin, .forbiddenAddress) }
        }
        let connection = H2Connection(id: nextID, target: origin.target, addresses: addresses, tls: tls,
                                      configuration: configuration, delegate: self, now: clock.now)
        nextID += 1
        if let error = connection.start() { return failWaiting(origin, error) }
        counters.withLock { $0.connectionsOpened += 1 }
        origin.connections.append(connection)
        connections[connection.id] = connection
        touched.insert(connection.id)
    }

    /// Fails every queued request of the origin (its connection could not be opened).
    private func failWaiting(_ origin: Origin, _ error: TransportError) {
        while !origin.waiting.isEmpty { complete(origin.waiting.removeFirst().completion, .failure(error)) }
    }

    /// The origin speaks HTTP/1.1: its requests go to libcurl with the time they have left.
    private func handOver(_ origin: Origin) {
        let now = clock.now
        while !origin.waiting.isEmpty {
            let request = origin.waiting.removeFirst()
            var forwarded = request.request
            forwarded.timeout = max(.milliseconds(1), request.deadline - now)
            counters.withLock { $0.inFlight -= 1 }
            fallback(forwarded, request.cancellation, request.completion)
        }
    }

    /// Deadlines, cancellations and connection timeouts.
    private func sweep(cancelling: Bool) {
        let now = clock.now
        for (key, origin) in origins {
            for request in origin.waiting.remove(where: { now >= $0.deadline || $0.cancellation?.isCancelled == true }) {
                complete(request.completion, .failure(request.cancellation?.isCancelled == true ? .cancelled : .timedOut))
            }
            for connection in origin.connections {
                if connection.state != .open, now - connection.openedAt > configuration.connectTimeout {
                    connection.close(.timedOut)
                    continue
                }
                for request in connection.streams.values
                where now >= request.deadline || (cancelling && request.cancellation?.isCancelled == true) {
                    connection.cancel(request)
                    touched.insert(connection.id)
                    complete(request.completion, .failure(request.cancellation?.isCancelled == true ? .cancelled : .timedOut))
                }
            }
            if origin.waiting.isEmpty && origin.connections.isEmpty && !origin.resolving { origins[key] = nil }
        }
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

    private func stopEverything() {
        // Closing puts a connection's unanswered requests back in the queue: close, then fail the queues.
        for origin in origins.values {
            for connection in origin.connections { connection.close(.cancelled) }
        }
        for origin in origins.values { failWaiting(origin, .cancelled) }
        origins.removeAll()
        connections.removeAll()
        Glibc.close(epoll)
        Glibc.close(wakeFD)
    }

    private func complete(_ completion: H2Request.Completion, _ result: Result<ClientResponse, TransportError>) {
        counters.withLock { $0.finish(result) }
        completion(result)
    }

    /// Sends the request again ahead of its origin's queue, or fails it when it was refused or
    /// lost too often (each kind counted apart: a refusal says nothing about the server).
    private func retry(_ request: H2Request, refused: Bool) {
        if refused { request.refusals += 1 } else { request.losses += 1 }
        let allowed = refused ? request.refusals < Self.refusedAttempts : request.losses < Self.lostAttempts
        guard allowed, clock.now < request.deadline, let origin = origins[request.target.origin] else {
            return complete(request.completion, .failure(.connectionReset))
        }
        counters.withLock { $0.retries += 1 }
        origin.waiting.prepend(request)
    }
}

extension H2Engine: H2ConnectionDelegate {
    func connectionBecameReady(_ connection: H2Connection) {
        pump(connection.target.origin)
    }

    func connection(_ connection: H2Connection, ended request: H2Request, _ end: H2StreamEnd) {
        switch end {
        case .answered: complete(request.completion, .success(request.response))
        case .tooLarge: complete(request.completion, .failure(.tooLarge))
        case .reset(let code):
            if request.answered {
                complete(request.completion, .failure(.connectionReset))
            } else {
                retry(request, refused: code == NGHTTP2_REFUSED_STREAM.rawValue)
            }
        }
        pump(connection.target.origin)
    }

    func connectionClosed(_ connection: H2Connection, unanswered: [H2Request], error: TransportError) {
        connections[connection.id] = nil
        registered[connection.id] = nil
        let key = connection.target.origin
        guard let origin = origins[key] else { return }
        origin.connections.removeAll { $0 === connection }
        for request in unanswered {
            if request.answered { complete(request.completion, .failure(.connectionReset)) } else { retry(request, refused: false) }
        }
        // A connection that never became ready failed to open: nothing waiting can go anywhere else.
        if !connection.settingsReceived && origin.connections.allSatisfy({ !$0.isUsable }) {
            failWaiting(origin, error)
        }
        pump(key)
    }

    func connectionSpeaksHTTP1(_ connection: H2Connection) {
        connections[connection.id] = nil
        registered[connection.id] = nil
        guard let origin = origins[connection.target.origin] else { return }
        origin.connections.removeAll { $0 === connection }
        origin.speaksHTTP1 = true
        handOver(origin)
    }
}

/// A FIFO of requests with cheap removal at the front and pushing back in front (a retry). A
/// removed request's slot is cleared at once and the array compacted once half of it is spent,
/// so a queue that never runs empty under steady load does not keep every request it carried.
struct RequestQueue {
    private var items: [H2Request?] = []
    private var head = 0

    var isEmpty: Bool { head == items.count }
    var count: Int { items.count - head }

    mutating func append(_ request: H2Request) { items.append(request) }

    mutating func prepend(_ request: H2Request) {
        if head > 0 {
            head -= 1
            items[head] = request
        } else {
            items.insert(request, at: 0)
        }
    }

    mutating func removeFirst() -> H2Request {
        let request = items[head]!
        items[head] = nil
        head += 1
        if head == items.count {
            items.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= items.count {
            items.removeFirst(head)
            head = 0
        }
        return request
    }

    /// Removes and returns the requests matching `predicate`, keeping the others in order.
    mutating func remove(where predicate: (H2Request) -> Bool) -> [H2Request] {
        guard !isEmpty else { return [] }
        var kept: [H2Request?] = []
        var removed: [H2Request] = []
        for case let request? in items[head...] {
            if predicate(request) { removed.append(request) } else { kept.append(request) }
        }
        if !removed.isEmpty {
            items = kept
            head = 0
        }
        return removed
    }
}
