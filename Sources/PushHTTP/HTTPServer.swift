import CMicroHTTPD
import Foundation
import PushNet
import PushSupport

/// An HTTP/1.1 server on libmicrohttpd: an internal thread pool, keep-alive, request bodies
/// capped at `maxBodyBytes`, idle connections closed after `connectionTimeout`, request heads
/// bounded by `maxHeaderBytes`, and a request that has not arrived whole within `requestTimeout`
/// (bytes trickled in) closed by `RequestDeadlines`.
///
/// Owns its `MHD_Daemon`. A `LongRunning` part: `start()` binds; `stop()` stops accepting (answers
/// on open connections then carry `Connection: close`); `drain(timeout:)` waits for the requests
/// in flight, then closes every connection and joins the worker threads. Deinit closes it too.
package final class HTTPServer: LongRunning {
    package struct Configuration: Sendable {
        package var address: ListenAddress
        /// Worker threads (libmicrohttpd's thread pool).
        package var threads = 8
        /// Seconds an idle connection is kept.
        package var connectionTimeout: Double = 30
        /// Largest request body; larger ones get `respondTooLarge` without being buffered.
        package var maxBodyBytes = 4 * 1024 * 1024
        /// Concurrent connections at most.
        package var maxConnections = 4096
        /// Concurrent connections from one client address; 0 = no limit.
        package var maxConnectionsPerIP = 0
        /// A connection's buffer for the request line and headers (libmicrohttpd's connection memory
        /// limit); a larger head is refused by libmicrohttpd.
        package var maxHeaderBytes = 64 * 1024
        /// Seconds a request's head and body may take to arrive (`RequestDeadlines`).
        package var requestTimeout: Double = 30
    }

    /// A failure to start, with the address.
    package struct StartError: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    /// `api` or `admin`, for logs.
    package let name: String
    package let configuration: Configuration
    package let responder: any HTTPResponder
    let inFlight = InFlightCounter()
    let deadlines: RequestDeadlines
    private let lifecycle = Protected(Lifecycle())

    private struct Lifecycle {
        var daemon: OpaquePointer?
        var port: UInt16 = 0
        var quiesced = false
        var closed = false
    }

    package init(name: String = "http", configuration: Configuration, responder: any HTTPResponder) {
        self.name = name
        self.configuration = configuration
        self.responder = responder
        deadlines = RequestDeadlines(requestTimeout: configuration.requestTimeout,
                                     keepAliveTimeout: configuration.connectionTimeout)
    }

    /// Connections closed because a request did not arrive within `requestTimeout`.
    package var requestsTimedOut: Int { deadlines.timedOut }

    deinit { closeDaemon() }

    /// The bound port (the real one when the configured port is 0); 0 before `start()`.
    package var port: Int { Int(lifecycle.withLock { $0.port }) }

    /// Whether the server stopped accepting (answers then carry `Connection: close`).
    var isQuiesced: Bool { lifecycle.withLock { $0.quiesced } }

    /// Requests being read or answered right now.
    package var requestsInFlight: Int { inFlight.value }

    /// Binds and starts the worker threads. A server starts once.
    package func start() throws(StartError) {
        guard lifecycle.withLock({ $0.daemon == nil && !$0.closed }) else {
            throw StartError(description: "server on \(configuration.address) was already started")
        }
        let address: SocketAddress
        do { address = try SocketAddress.resolve(configuration.address) } catch { throw StartError(description: error.description) }
        let me = Unmanaged.passUnretained(self).toOpaque()
        let daemon: OpaquePointer? = address.withSockaddr { sockaddr in
            pushnode_mhd_start(
                configuration.address.isIPv6 || address.isIPv6 ? MHD_USE_IPv6.rawValue : 0,
                configuration.address.port, sockaddr,
                UInt32(max(1, configuration.threads)), UInt32(max(1, configuration.maxConnections)),
                UInt32(max(1, configuration.connectionTimeout.rounded(.up))),
                max(1024, configuration.maxHeaderBytes), UInt32(max(0, configuration.maxConnectionsPerIP)),
                HTTPServerCallbacks.access, me, HTTPServerCallbacks.completed, me, HTTPServerCallbacks.uriLogged, me,
                HTTPServerCallbacks.connectionNotified, me)
        }
        guard let daemon else {
            throw StartError(description: "cannot listen on \(configuration.address): \(String(cString: strerror(errno)))")
        }
        deadlines.start()
        let port = pushnode_mhd_bound_port(daemon)
        lifecycle.withLock {
            $0.daemon = daemon
            $0.port = port == 0 ? configuration.address.port : port
        }
    }

    /// Stops accepting connections; requests on open connections are still answered, each with
    /// `Connection: close`.
    package func stop() {
        lifecycle.withLock { state in
            guard let daemon = state.daemon, !state.quiesced else { return }
            state.quiesced = true
            let fd = MHD_quiesce_daemon(daemon)
            if fd >= 0 { close(fd) }
        }
    }

    /// Waits until no request is in flight or `timeout` seconds passed (true when idle), then
    /// closes every connection and joins the worker threads.
    @discardableResult
    package func drain(timeout: Double) -> Bool {
        stop()
        let idle = inFlight.waitForZero(timeout: timeout)
        closeDaemon()
        return idle
    }

    private func closeDaemon() {
        let daemon: OpaquePointer? = lifecycle.withLock { state in
            defer { state.daemon = nil; state.closed = true }
            return state.daemon
        }
        if let daemon { MHD_stop_daemon(daemon) }
        deadlines.stop()
    }
}

/// Counts requests between the URI-log and completion callbacks and lets shutdown wait for zero.
final class InFlightCounter: @unchecked Sendable {
    private let condition = NSCondition()
    private var count = 0

    var value: Int {
        condition.lock()
        defer { condition.unlock() }
        return count
    }

    func increment() {
        condition.lock()
        count += 1
        condition.unlock()
    }

    func decrement() {
        condition.lock()
        count -= 1
        if count <= 0 { condition.broadcast() }
        condition.unlock()
    }

    func waitForZero(timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while count > 0 {
            if !condition.wait(until: deadline) { return count <= 0 }
        }
        return true
    }
}

extension HTTPServer.Configuration {
    /// The other fields at their defaults; the node sets them from `server.*` and `limits`.
    package init(address: ListenAddress) { self.address = address }
}
