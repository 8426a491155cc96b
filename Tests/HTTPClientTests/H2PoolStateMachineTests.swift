import Testing
@testable import HTTPClient

/// The HTTP/2 pool's rules without sockets: events fed by hand on a stepped clock, the
/// actions it returns checked.
@Suite struct H2PoolStateMachineTests {
    typealias Action = H2PoolStateMachine.Action

    /// The pool plus what the engine would report back: stream ids as nghttp2 gives them (odd,
    /// rising, per connection).
    struct Harness {
        var pool: H2PoolStateMachine
        let t0 = ContinuousClock.now
        let origin = "https://push.example"
        var nextStream: [UInt64: Int32] = [:]
        var streamOf: [UInt64: (connection: UInt64, stream: Int32)] = [:]

        init(connections: Int = 2, streams: Int = 1000) {
            var configuration = HTTPClientConfiguration(connectTimeout: .seconds(10), maxConnectionsPerHost: connections,
                                                        maxConcurrentStreams: streams)
            configuration.idleConnectionTimeout = .seconds(90)
            configuration.pingAfterQuiet = .seconds(10)
            configuration.pingTimeout = .seconds(5)
            pool = H2PoolStateMachine(settings: .init(configuration))
        }

        func at(_ seconds: Double) -> ContinuousClock.Instant { t0 + .milliseconds(Int(seconds * 1000)) }

        /// Reports each stream the actions open, as the engine does.
        mutating func opened(_ actions: [Action]) -> [Action] {
            for case .openStream(let request, let connection) in actions {
                let stream = nextStream[connection, default: 1]
                nextStream[connection] = stream + 2
                pool.streamOpened(request, on: connection, stream: stream)
                streamOf[request] = (connection, stream)
            }
            return actions
        }

        mutating func submit(_ ids: ClosedRange<UInt64>, at seconds: Double = 0, timeout: Double = 30) -> [Action] {
            ids.flatMap { id in
                opened(pool.submit(id, origin: origin, deadline: at(seconds + timeout), now: at(seconds)))
            }
        }

        /// The connection connects and the server's SETTINGS allow `limit` streams.
        mutating func ready(_ connection: UInt64, limit: Int = 100, at seconds: Double = 0) -> [Action] {
            pool.connectionStarted(connection, now: at(seconds))
            return opened(pool.settingsReceived(connection, maxConcurrentStreams: limit, now: at(seconds)))
        }

        mutating func end(_ request: UInt64, _ end: H2PoolStateMachine.StreamEnd, at seconds: Double = 1) -> [Action] {
            let (connection, stream) = streamOf[request]!
            return opened(pool.streamEnded(request, on: connection, stream: stream, end, now: at(seconds)))
        }

        mutating func closed(_ connection: UInt64, _ error: TransportError, answered: Set<UInt64> = [], at seconds: Double = 1) -> [Action] {
            opened(pool.closed(connection, error, answered: answered, now: at(seconds)))
        }

        mutating func tick(_ seconds: Double) -> [Action] { opened(pool.tick(now: at(seconds))) }
    }

    static let refused = H2PoolStateMachine.refusedStream
    static let internalError: UInt32 = 0x2

    // MARK: Stream budgets

    @Test func opensStreamsWithinTheServersBudgetAndASecondConnectionWhenFull() {
        var h = Harness(connections: 2)
        #expect(h.submit(1...5) == [.open(1, origin: h.origin)])
        #expect(h.ready(1, limit: 2) == [.openStream(1, on: 1), .openStream(2, on: 1), .open(2, origin: h.origin)])
        #expect(h.ready(2, limit: 2) == [.openStream(3, on: 2), .openStream(4, on: 2)])
        // Both full and the pool at its limit: request 5 waits for a stream, no third connection.
        #expect(h.tick(0.5) == [])
        #expect(h.end(3, .answered) == [.succeed(3), .openStream(5, on: 2)])
        #expect(h.end(1, .answered) == [.succeed(1)])
        #expect(h.submit(6...6, at: 2) == [.openStream(6, on: 1)])
    }

    @Test func capsStreamsAtTheConfiguredLimitAndOpensOneConnectionAtATime() {
        var h = Harness(connections: 3, streams: 1)
        #expect(h.submit(1...3) == [.open(1, origin: h.origin)])
        // No second connection while the first is still opening.
        #expect(h.submit(4...4) == [])
        #expect(h.ready(1, limit: 100) == [.openStream(1, on: 1), .open(2, origin: h.origin)])
        #expect(h.ready(2) == [.openStream(2, on: 2), .open(3, origin: h.origin)])
        #expect(h.ready(3) == [.openStream(3, on: 3)])
        // A later SETTINGS lowers the budget below what is in flight: nothing new goes there.
        #expect(h.pool.settingsReceived(1, maxConcurrentStreams: 0, now: h.at(1)) == [])
        #expect(h.end(1, .answered) == [.succeed(1)])
        #expect(h.end(2, .answered) == [.succeed(2), .openStream(4, on: 2)])
    }

    // MARK: Lost streams

    @Test func sendsARefusedStreamAgainUntilItWasRefusedThreeTimes() {
        var h = Harness()
        _ = h.submit(1...1)
        #expect(h.ready(1) == [.openStream(1, on: 1)])
        for _ in 0..<2 {
            #expect(h.end(1, .reset(code: Self.refused, afterAnswer: false)) == [.retried(1), .openStream(1, on: 1)])
        }
        #expect(h.end(1, .reset(code: Self.refused, afterAnswer: false)) == [.fail(1, .connectionReset)])
        #expect(h.pool.requests.isEmpty)
    }

    @Test func sendsAStreamLostAnyOtherWayAgainOnce() {
        var h = Harness()
        _ = h.submit(1...1)
        _ = h.ready(1)
        #expect(h.end(1, .reset(code: Self.internalError, afterAnswer: false)) == [.retried(1), .openStream(1, on: 1)])
        // A refusal is counted apart: it does not use up the loss.
        #expect(h.end(1, .reset(code: Self.refused, afterAnswer: false)) == [.retried(1), .openStream(1, on: 1)])
        #expect(h.end(1, .reset(code: Self.internalError, afterAnswer: false)) == [.fail(1, .connectionReset)])
    }

    @Test func neverSendsAgainWhatWasAnsweredOrIsPastItsDeadline() {
        var h = Harness()
        _ = h.submit(1...3, timeout: 5)
        _ = h.ready(1)
        #expect(h.end(1, .reset(code: 0, afterAnswer: true)) == [.fail(1, .connectionReset)])
        #expect(h.end(2, .tooLarge) == [.fail(2, .tooLarge)])
        #expect(h.end(3, .reset(code: Self.refused, afterAnswer: false), at: 6) == [.fail(3, .connectionReset)])
    }

    @Test func sendsTheStreamsOfAClosedConnectionAgainOnANewOne() {
        var h = Harness(connections: 1)
        _ = h.submit(1...3)
        _ = h.ready(1)
        // Request 2's answer had begun: it fails; 1 and 3 go again, in their order, on one new connection.
        #expect(h.closed(1, .connectionReset, answered: [2]) == [.retried(3), .fail(2, .connectionReset), .retried(1),
                                                                .open(2, origin: h.origin)])
        #expect(h.ready(2) == [.openStream(1, on: 2), .openStream(3, on: 2)])
        #expect(h.closed(2, .connectionReset) == [.fail(3, .connectionReset), .fail(1, .connectionReset)])
    }

    // MARK: GOAWAY

    @Test func goawaySendsTheUnprocessedStreamsAgainAndOpensNothingMoreOnThatConnection() {
        var h = Harness(connections: 1)
        _ = h.submit(1...3)
        _ = h.ready(1)  // streams 1, 3, 5
        #expect(h.pool.goaway(1, lastStreamID: 1, now: h.at(1)) == [.retried(3), .retried(2), .open(2, origin: h.origin)])
        // nghttp2 then reports those streams closed as refused: already sent again, ignored.
        #expect(h.end(2, .reset(code: Self.refused, afterAnswer: false)) == [])
        // Stream 1 finishes on the old connection; nothing new goes there.
        #expect(h.end(1, .answered) == [.succeed(1)])
        #expect(h.submit(4...4, at: 1) == [])
        #expect(h.ready(2, at: 1) == [.openStream(2, on: 2), .openStream(3, on: 2), .openStream(4, on: 2)])
        #expect(h.closed(1, .connectionReset) == [])
    }

    // MARK: Opening fails

    @Test func aRefusedConnectFailsTheQueueAtOnce() {
        var h = Harness()
        _ = h.submit(1...2)
        #expect(h.pool.connectFailed(1, .connectFailed, now: h.at(0.01)) == [.fail(1, .connectFailed), .fail(2, .connectFailed)])
        #expect(h.tick(0.1) == [])
        #expect(h.submit(3...3, at: 1) == [.open(2, origin: h.origin)])
        #expect(h.closed(2, .tls("bad certificate")) == [.fail(3, .tls("bad certificate"))])
    }

    @Test func closesAConnectionThatDoesNotOpenInTime() {
        var h = Harness()
        _ = h.submit(1...1, timeout: 60)
        h.pool.connectionStarted(1, now: h.at(0.5))
        #expect(h.tick(10.5) == [])
        #expect(h.tick(10.6) == [.close(1, .timedOut)])
        #expect(h.tick(10.7) == [])
        #expect(h.closed(1, .timedOut, at: 10.7) == [.fail(1, .timedOut)])
    }

    // MARK: HTTP/1.1

    @Test func handsAnHTTP11OriginsRequestsOverFromThenOn() {
        var h = Harness()
        _ = h.submit(1...2)
        #expect(h.pool.speaksHTTP1(1, now: h.at(0.1)) == [.handOver(1), .handOver(2)])
        #expect(h.tick(100) == [])
        #expect(h.submit(3...3, at: 101) == [.handOver(3)])
        #expect(h.pool.requests.isEmpty)
    }

    /// Origins an attacker picks (issue 26) cannot grow the pool: one with nothing queued or open
    /// is forgotten at the next tick, and HTTP/1.1 origins are remembered up to a bound.
    @Test func forgetsOriginsWithNothingQueuedOrOpenAndBoundsTheHTTP11Ones() {
        var h = Harness()
        h.pool = H2PoolStateMachine(settings: {
            var settings = h.pool.settings
            settings.maxRememberedOrigins = 3
            return settings
        }())
        var connection: UInt64 = 0
        for index in 1...10 as ClosedRange<UInt64> {
            let actions = h.pool.submit(index, origin: "https://h\(index).example", deadline: h.at(30), now: h.at(0))
            for case .open(let id, _) in actions { connection = id }
            if index <= 6 {
                #expect(h.pool.speaksHTTP1(connection, now: h.at(0)) == [.handOver(index)])
            } else {
                _ = h.pool.connectFailed(connection, .connectFailed, now: h.at(0))
            }
        }
        _ = h.tick(1)
        #expect(h.pool.origins.count == 3)
        #expect(h.pool.origins.values.allSatisfy { $0.speaksHTTP1 })
        #expect(h.pool.requests.isEmpty && h.pool.connections.isEmpty)
    }

    // MARK: Timers

    @Test func failsRequestsPastTheirDeadlineAndCancelled() {
        var h = Harness(connections: 1)
        _ = h.submit(1...2, timeout: 5)
        _ = h.ready(1, limit: 1)
        _ = h.submit(3...4, timeout: 5)
        #expect(h.pool.cancel([2, 3], now: h.at(1)) == [.fail(2, .cancelled), .fail(3, .cancelled)])
        #expect(h.tick(5) == [.fail(4, .timedOut), .resetStream(1, on: 1), .fail(1, .timedOut)])
        #expect(h.pool.requests.isEmpty)
    }

    @Test func cancelsAStreamInFlight() {
        var h = Harness()
        _ = h.submit(1...1)
        _ = h.ready(1)
        #expect(h.pool.cancel([1], now: h.at(1)) == [.resetStream(1, on: 1), .fail(1, .cancelled)])
        #expect(h.end(1, .reset(code: 0x8, afterAnswer: false)) == [])
    }

    @Test func closesAConnectionIdleForTheIdleTimeout() {
        var h = Harness()
        _ = h.submit(1...1)
        _ = h.ready(1)
        _ = h.end(1, .answered, at: 1)
        // Frames (a server's own PINGs) do not keep a connection without streams open.
        h.pool.heard(1, now: h.at(60))
        #expect(h.tick(90.9) == [])
        #expect(h.tick(91) == [.close(1, .cancelled)])
        #expect(h.closed(1, .cancelled, at: 91) == [])
        #expect(h.submit(2...2, at: 92) == [.open(2, origin: h.origin)])
    }

    @Test func pingsAQuietConnectionWithStreamsAndKeepsItWhenAnswered() {
        var h = Harness()
        _ = h.submit(1...1, timeout: 60)
        _ = h.ready(1)
        h.pool.heard(1, now: h.at(2))
        #expect(h.tick(11.9) == [])
        #expect(h.tick(12) == [.ping(1)])
        #expect(h.tick(13) == [])
        h.pool.pingAcknowledged(1, now: h.at(13.5))
        #expect(h.tick(20) == [])
        #expect(h.tick(23.5) == [.ping(1)])
        #expect(h.end(1, .answered, at: 24) == [.succeed(1)])
    }

    @Test func treatsAConnectionWhosePingGoesUnansweredAsLost() {
        var h = Harness()
        _ = h.submit(1...2, timeout: 60)
        _ = h.ready(1)
        #expect(h.tick(10) == [.ping(1)])
        h.pool.heard(1, now: h.at(12))  // other frames do not stand in for the ACK
        #expect(h.tick(14.9) == [])
        #expect(h.tick(15) == [.close(1, .connectionReset)])
        #expect(h.closed(1, .connectionReset, at: 15) == [.retried(2), .retried(1), .open(2, origin: h.origin)])
        #expect(h.ready(2, at: 15.1) == [.openStream(1, on: 2), .openStream(2, on: 2)])
    }

    @Test func stopFailsEverythingAndClosesEveryConnection() {
        var h = Harness()
        _ = h.submit(1...3)
        _ = h.ready(1, limit: 2)
        #expect(h.pool.stop() == [.fail(1, .cancelled), .fail(2, .cancelled), .fail(3, .cancelled),
                                  .close(1, .cancelled), .close(2, .cancelled)])
        #expect(h.closed(1, .cancelled) == [])
    }
}
