/// Every decision of the HTTP/2 engine's connection pool, as a value with no sockets, no threads
/// and no clock of its own (the pattern of `LaneStateMachine`): `H2Engine` feeds it events —
/// requests submitted, what connections reported, a tick at `now` — and carries out the
/// `Action`s they return over epoll, TLS and nghttp2. Tests step a clock and feed events by hand.
///
/// The rules:
/// - Per origin at most `maxConnectionsPerHost` connections and a FIFO of requests waiting for
///   a stream; a stream is opened only where the connection's budget (the server's
///   `SETTINGS_MAX_CONCURRENT_STREAMS`, capped by `maxConcurrentStreams`) leaves room, so a
///   request never waits inside a connection it cannot move out of. A new connection is opened
///   only when none can take the queue and none is still opening.
/// - A request whose stream ended before its answer — reset, refused, above a GOAWAY's last
///   stream id, on a connection that closed or stopped answering PINGs — is sent again at
///   once, ahead of the queue: after a refusal until it was refused `refusedAttempts` times,
///   after any other loss once (`lostAttempts` tries), never past its deadline. A request whose
///   final answer had begun is never sent again (`connectionReset`).
/// - A connection that fails to open fails its origin's queue at once with its error.
/// - An origin whose server picked HTTP/1.1 in ALPN is remembered: its requests are handed
///   over to libcurl from then on. At most `maxRememberedOrigins` such origins are kept with
///   nothing queued or open; any other origin is forgotten once it has neither.
/// - On each tick: queued and in-flight requests past their deadline fail with `timedOut`; a
///   connection not ready `connectTimeout` after it began connecting is closed; a connection
///   without streams for `idleTimeout` is closed; one with streams and no frame for
///   `pingAfter` is sent a PING, and closed as lost when the ACK is `pingTimeout` late.
struct H2PoolStateMachine {
    typealias RequestID = UInt64
    typealias ConnectionID = UInt64
    typealias Instant = ContinuousClock.Instant

    /// One connection as the pool sees it.
    struct Connection {
        let origin: String
        /// Set once the socket is connecting (after DNS): the connect timeout runs from here.
        var connectingSince: Instant?
        /// The server's first SETTINGS arrived: streams may be opened.
        var ready = false
        /// The pool asked the engine to close it: nothing more goes on it.
        var closing = false
        /// GOAWAY received: no new streams.
        var goingAway = false
        /// Streams it may carry at once.
        var limit = 0
        /// The requests on it and their stream ids (0 until `streamOpened`).
        var streams: [RequestID: Int32] = [:]
        /// The last frame from the server, or the last stream opened or ended on it (a PING
        /// goes to a connection with streams quiet since).
        var lastActive: Instant
        /// The last stream opened or ended on it (idle since, when it has none).
        var lastUsed: Instant
        /// A PING sent and not yet acknowledged.
        var pingSentAt: Instant?

        var freeStreams: Int { ready && !goingAway && !closing ? max(0, limit - streams.count) : 0 }
        /// Able to carry requests, now or once it is ready.
        var isUsable: Bool { !closing && !goingAway }
    }

    struct Request {
        let origin: String
        let deadline: Instant
        var refusals = 0
        var losses = 0
        /// The connection its current stream is on; nil while queued.
        var connection: ConnectionID?
    }

    struct Origin {
        /// In the order they were opened: streams go to the first with room.
        var connections: [ConnectionID] = []
        var waiting = RequestQueue<RequestID>()
        var speaksHTTP1 = false
    }

    let settings: Settings
    private(set) var requests: [RequestID: Request] = [:]
    private(set) var connections: [ConnectionID: Connection] = [:]
    private(set) var origins: [String: Origin] = [:]
    private var nextConnectionID: ConnectionID = 1

    init(settings: Settings) {
        self.settings = settings
    }

    /// Nothing queued and no stream open: the engine may wait longer between ticks.
    var isIdle: Bool {
        origins.values.allSatisfy(\.waiting.isEmpty) && connections.values.allSatisfy(\.streams.isEmpty)
    }

    // MARK: Requests

    /// A new request for `origin`, to be answered by `deadline`.
    mutating func submit(_ id: RequestID, origin key: String, deadline: Instant, now: Instant) -> [Action] {
        requests[id] = Request(origin: key, deadline: deadline)
        origins[key, default: Origin()].waiting.append(id)
        return pump(key, now: now)
    }

    /// Cancelled requests: their streams are reset, and they fail with `cancelled`.
    mutating func cancel(_ ids: some Sequence<RequestID>, now: Instant) -> [Action] {
        var actions: [Action] = []
        var queued: [String: Set<RequestID>] = [:]
        for id in ids {
            guard let request = requests[id] else { continue }
            if let connection = request.connection {
                actions += forget(id, on: connection, resetting: true, .cancelled)
            } else {
                queued[request.origin, default: []].insert(id)
            }
        }
        for (key, ids) in queued {
            for id in origins[key]?.waiting.remove(where: ids.contains) ?? [] { actions += fail(id, .cancelled) }
        }
        return actions
    }

    // MARK: Connections

    /// The connection's socket is connecting (its host resolved).
    mutating func connectionStarted(_ id: ConnectionID, now: Instant) {
        connections[id]?.connectingSince = now
    }

    /// The connection could not be opened (DNS, no address it may dial, no socket).
    mutating func connectFailed(_ id: ConnectionID, _ error: TransportError, now: Instant) -> [Action] {
        closed(id, error, answered: [], now: now)
    }

    /// The server's SETTINGS (each time): the first makes the connection ready.
    mutating func settingsReceived(_ id: ConnectionID, maxConcurrentStreams: Int, now: Instant) -> [Action] {
        guard var connection = connections[id] else { return [] }
        connection.limit = min(maxConcurrentStreams, settings.maxConcurrentStreams)
        if !connection.ready {
            connection.ready = true
            connection.lastActive = now
            connection.lastUsed = now
        }
        connections[id] = connection
        return pump(connection.origin, now: now)
    }

    /// Bytes arrived on the connection.
    mutating func heard(_ id: ConnectionID, now: Instant) {
        connections[id]?.lastActive = now
    }

    mutating func pingAcknowledged(_ id: ConnectionID, now: Instant) {
        connections[id]?.pingSentAt = nil
        connections[id]?.lastActive = now
    }

    /// GOAWAY: no new streams on the connection; those above `lastStreamID` were never
    /// processed and are sent again as refused ones.
    mutating func goaway(_ id: ConnectionID, lastStreamID: Int32, now: Instant) -> [Action] {
        guard var connection = connections[id] else { return [] }
        connection.goingAway = true
        let unprocessed = connection.streams.filter { $0.value > lastStreamID }.sorted { $0.value > $1.value }
        for (request, _) in unprocessed { connection.streams[request] = nil }
        connections[id] = connection
        var actions: [Action] = []
        for (request, _) in unprocessed { actions += resend(request, refused: true, now: now) }
        return actions + pump(connection.origin, now: now)
    }

    /// The connection is gone. Of the requests on it, `answered` had their final answer begin
    /// (they fail); the others are sent again. One that never became ready fails its origin's
    /// queue with `error`.
    mutating func closed(_ id: ConnectionID, _ error: TransportError, answered: Set<RequestID>, now: Instant) -> [Action] {
        guard let connection = connections.removeValue(forKey: id) else { return [] }
        origins[connection.origin]?.connections.removeAll { $0 == id }
        var actions: [Action] = []
        // Highest stream first, each put in front: they go out again in the order they were sent.
        for (request, _) in connection.streams.sorted(by: { $0.value > $1.value }) {
            requests[request]?.connection = nil
            actions += answered.contains(request) ? fail(request, .connectionReset) : resend(request, refused: false, now: now)
        }
        if !connection.ready {
            for request in origins[connection.origin]?.waiting.removeAll() ?? [] { actions += fail(request, error) }
        }
        return actions + pump(connection.origin, now: now)
    }

    /// The server chose HTTP/1.1 in ALPN: the origin's requests go to libcurl from now on.
    mutating func speaksHTTP1(_ id: ConnectionID, now: Instant) -> [Action] {
        guard let connection = connections.removeValue(forKey: id) else { return [] }
        origins[connection.origin]?.connections.removeAll { $0 == id }
        origins[connection.origin]?.speaksHTTP1 = true
        return pump(connection.origin, now: now)
    }

    // MARK: Streams

    mutating func streamOpened(_ request: RequestID, on id: ConnectionID, stream: Int32) {
        guard connections[id]?.streams[request] != nil else { return }
        connections[id]?.streams[request] = stream
    }

    /// nghttp2 refused to open the stream: the request fails.
    mutating func streamNotOpened(_ request: RequestID, on id: ConnectionID, now: Instant) -> [Action] {
        guard let origin = connections[id]?.origin else { return [] }
        return forget(request, on: id, resetting: false, .other(code: -1, message: "nghttp2 refused the request"))
            + pump(origin, now: now)
    }

    /// A stream ended. Reports about a stream the request is no longer on (it was already sent
    /// again after a GOAWAY, or cancelled) are ignored.
    mutating func streamEnded(_ request: RequestID, on id: ConnectionID, stream: Int32, _ end: StreamEnd, now: Instant) -> [Action] {
        guard var connection = connections[id], connection.streams[request] == stream else { return [] }
        connection.streams[request] = nil
        connection.lastActive = now
        connection.lastUsed = now
        connections[id] = connection
        requests[request]?.connection = nil
        let actions: [Action]
        switch end {
        case .answered:
            requests[request] = nil
            actions = [.succeed(request)]
        case .tooLarge: actions = fail(request, .tooLarge)
        case .reset(_, afterAnswer: true): actions = fail(request, .connectionReset)
        case .reset(let code, afterAnswer: false): actions = resend(request, refused: code == Self.refusedStream, now: now)
        }
        return actions + pump(connection.origin, now: now)
    }

    // MARK: Timers

    /// The timers, at `now` (the engine ticks every 100 ms while requests are in flight, every
    /// second otherwise): deadlines of queued and in-flight requests, connect timeouts, PINGs
    /// to quiet connections and their ACKs, and idle connections.
    mutating func tick(now: Instant) -> [Action] {
        var actions: [Action] = []
        for key in origins.keys.sorted() {
            let expired = origins[key]!.waiting.remove { requests[$0].map { now >= $0.deadline } ?? true }
            for request in expired { actions += fail(request, .timedOut) }
        }
        for id in connections.keys.sorted() {
            actions += tick(id, now: now)
        }
        var remembered = 0
        for key in origins.keys.sorted() {
            actions += pump(key, now: now)
            let origin = origins[key]!
            guard origin.waiting.isEmpty && origin.connections.isEmpty else { continue }
            if origin.speaksHTTP1 && remembered < settings.maxRememberedOrigins {
                remembered += 1
            } else {
                origins[key] = nil
            }
        }
        return actions
    }

    private mutating func tick(_ id: ConnectionID, now: Instant) -> [Action] {
        guard let connection = connections[id], !connection.closing else { return [] }
        if !connection.ready {
            guard let since = connection.connectingSince, now - since > settings.connectTimeout else { return [] }
            return close(id, .timedOut)
        }
        var actions: [Action] = []
        let expired = connection.streams.keys.filter { requests[$0].map { now >= $0.deadline } ?? true }
        for request in expired.sorted() { actions += forget(request, on: id, resetting: true, .timedOut) }
        if let sent = connection.pingSentAt {
            if now - sent >= settings.pingTimeout { actions += close(id, .connectionReset) }
        } else if connections[id]!.streams.isEmpty {
            if now - connection.lastUsed >= settings.idleTimeout { actions += close(id, .cancelled) }
        } else if now - connection.lastActive >= settings.pingAfter {
            connections[id]!.pingSentAt = now
            actions.append(.ping(id))
        }
        return actions
    }

    /// Marks the connection closing (nothing more goes on it) and asks the engine to close it;
    /// its streams come back with `closed`.
    private mutating func close(_ id: ConnectionID, _ error: TransportError) -> [Action] {
        connections[id]?.closing = true
        return [.close(id, error)]
    }

    // MARK: Stopping

    /// The engine stops: every request fails with `cancelled`, every connection is closed, and
    /// the pool forgets them all.
    mutating func stop() -> [Action] {
        let failed = requests.keys.sorted().map { Action.fail($0, .cancelled) }
        let closed = connections.keys.sorted().map { Action.close($0, .cancelled) }
        requests.removeAll()
        connections.removeAll()
        origins.removeAll()
        return failed + closed
    }

    // MARK: Rules

    /// Opens streams for the origin's waiting requests while its connections have room, and a
    /// connection when none can take them, none is opening and the origin has fewer than the
    /// limit. An HTTP/1.1 origin's requests are handed over instead.
    private mutating func pump(_ key: String, now: Instant) -> [Action] {
        guard var origin = origins[key] else { return [] }
        var actions: [Action] = []
        defer { origins[key] = origin }
        if origin.speaksHTTP1 {
            for request in origin.waiting.removeAll() {
                requests[request] = nil
                actions.append(.handOver(request))
            }
            return actions
        }
        var candidates = origin.connections[...]
        while !origin.waiting.isEmpty, let id = candidates.first {
            guard connections[id]!.freeStreams > 0 else {
                candidates = candidates.dropFirst()
                continue
            }
            let request = origin.waiting.removeFirst()
            connections[id]!.streams[request] = 0
            connections[id]!.lastActive = now
            connections[id]!.lastUsed = now
            requests[request]?.connection = id
            actions.append(.openStream(request, on: id))
        }
        guard !origin.waiting.isEmpty else { return actions }
        // One that never became ready, even one being closed, is still opening: its outcome
        // (ready, or failing the queue) comes first.
        let all = origin.connections.compactMap { connections[$0] }
        guard all.allSatisfy(\.ready), all.filter(\.isUsable).count < settings.maxConnectionsPerHost else { return actions }
        let id = nextConnectionID
        nextConnectionID += 1
        connections[id] = Connection(origin: key, lastActive: now, lastUsed: now)
        origin.connections.append(id)
        actions.append(.open(id, origin: key))
        return actions
    }

    /// Puts the request in front of its origin's queue, or fails it when it was refused or lost
    /// too often or its deadline passed (each kind counted apart: a refusal says nothing about
    /// the server).
    private mutating func resend(_ id: RequestID, refused: Bool, now: Instant) -> [Action] {
        guard var request = requests[id] else { return [] }
        if refused { request.refusals += 1 } else { request.losses += 1 }
        let allowed = refused ? request.refusals < settings.refusedAttempts : request.losses < settings.lostAttempts
        guard allowed, now < request.deadline else { return fail(id, .connectionReset) }
        request.connection = nil
        requests[id] = request
        origins[request.origin, default: Origin()].waiting.prepend(id)
        return [.retried(id)]
    }

    /// Takes the request off its connection and fails it.
    private mutating func forget(_ request: RequestID, on id: ConnectionID, resetting: Bool, _ error: TransportError) -> [Action] {
        connections[id]?.streams[request] = nil
        return (resetting ? [.resetStream(request, on: id)] : []) + fail(request, error)
    }

    private mutating func fail(_ id: RequestID, _ error: TransportError) -> [Action] {
        requests[id] = nil
        return [.fail(id, error)]
    }
}
