import Foundation
import PushCrypto
import PushNet
import PushProtocol
import PushService
import PushSupport

/// The any-sync wire door (PROTOCOL §8): a TCP listener whose connections speak TLS + credentials +
/// yamux + DRPC onto the same `PushService` and `RateLimiter` as the HTTP door. One thread per
/// connection, at most `limits.maxConnections` of them and `limits.maxPendingHandshakes` still in
/// TLS or credentials.
///
/// A `LongRunning` part: made, it is bound (its port known); `start()` accepts; `stop()` stops
/// accepting, sends GoAway to every session and closes it; `drain(timeout:)` waits for the
/// sessions' threads.
package final class AnySyncDoor: LongRunning {
    package let name = "anysync"
    package struct StartError: Error, CustomStringConvertible, Sendable {
        package let description: String
    }

    package let port: Int
    package let peerID: String
    private let listener: AnySyncListener
    private let connections = Protected<(next: Int, open: [Int: AnySyncConnection], started: Bool, stopped: Bool)>(
        (0, [:], false, false))
    private let finished = DispatchGroup()
    private let log: LogSink
    /// The acceptor thread's loop, run by `start`.
    private let acceptLoop: @Sendable () -> Void
    /// `anysync.listen` as configured, for the `anysync_listening` line.
    private let address: ListenAddress

    /// What the door needs of the node's config (`anysync.*`, `limits.maxBodyBytes`, the enabled
    /// platforms).
    package struct Configuration: Sendable {
        package var listen: ListenAddress
        package var protocolVersions: ClosedRange<Int>
        package var maxMessageBytes: Int
        package var enabledPlatforms: Set<Platform>
        package var limits: AnySyncLimits

        package init(listen: ListenAddress, protocolVersions: ClosedRange<Int>, maxMessageBytes: Int,
                     enabledPlatforms: Set<Platform>, limits: AnySyncLimits = AnySyncLimits()) {
            self.listen = listen
            self.protocolVersions = protocolVersions
            self.maxMessageBytes = maxMessageBytes
            self.enabledPlatforms = enabledPlatforms
            self.limits = limits
        }
    }

    /// Binds the door to `configuration.listen` with the node's peer key; `start` opens it.
    package convenience init(_ configuration: Configuration, peerKey: Ed25519.KeyPair, service: PushService,
                             rateLimiter: RateLimiter, log: LogSink) throws {
        var settings = AnySyncConnection.Settings()
        settings.versions = configuration.protocolVersions
        settings.maxMessageBytes = configuration.maxMessageBytes
        settings.limits = configuration.limits
        try self.init(address: configuration.listen, peerKey: peerKey, settings: settings, log: log) { account, peerID, client in
            PushCallHandler(service: service, rateLimiter: rateLimiter, caller: account, peerID: peerID, client: client,
                            disabledPlatformToken: { platform in
                                log(.warn, "anysync_token_platform_disabled", ["platform": "\(platform.rawValue)", "account": "\(account.string)"])
                            },
                            enabledPlatforms: configuration.enabledPlatforms)
        }
    }

    init(address: ListenAddress, peerKey: Ed25519.KeyPair, settings: AnySyncConnection.Settings, log: LogSink,
         makeHandler: @escaping @Sendable (AccountID, String, String?) -> PushCallHandler) throws {
        let tls: TLSServerContext
        do { tls = try TLSServerContext(hostKey: peerKey) } catch { throw StartError(description: "anysync: TLS: \(error)") }
        listener = try AnySyncListener(address: address)
        port = listener.port
        peerID = PeerID.string(publicKey: peerKey.publicKey)
        self.log = log
        self.address = address
        let ownPeerID = peerID
        acceptLoop = { [listener, connections, finished] in
            while let fd = listener.accept() {
                let channel = SocketChannel(fd: fd)
                let connection = AnySyncConnection(channel: channel, tls: tls, peerKey: peerKey, ownPeerID: ownPeerID,
                                                   settings: settings, log: log, makeHandler: makeHandler)
                let admitted: Result<Int, AdmissionRefusal> = connections.withLock { state in
                    guard !state.stopped else { return .failure(.stopped) }
                    guard state.open.count < settings.limits.maxConnections else { return .failure(.connectionLimit) }
                    guard state.open.values.count(where: { !$0.inYamux }) < settings.limits.maxPendingHandshakes else {
                        return .failure(.pendingHandshakeLimit)
                    }
                    state.next += 1
                    state.open[state.next] = connection
                    return .success(state.next)
                }
                guard case .success(let id) = admitted else {
                    if case .failure(let refusal) = admitted, refusal != .stopped {
                        log(.warn, "anysync_refused", ["reason": "\(refusal.rawValue)"])
                    }
                    continue // the channel closes the fd when released
                }
                finished.enter()
                let worker = Thread {
                    connection.run()
                    connections.withLock { _ = $0.open.removeValue(forKey: id) }
                    finished.leave()
                }
                worker.stackSize = 512 * 1024
                worker.start()
            }
        }
    }

    /// Starts the acceptor thread (once).
    package func start() {
        guard connections.withLock({ state in
            defer { state.started = true }
            return !state.started && !state.stopped
        }) else { return }
        let acceptor = Thread(block: acceptLoop)
        acceptor.name = "pushnode.anysync.accept"
        acceptor.start()
        log(.info, "anysync_listening", ["listen": "\(ListenAddress(host: address.host, port: UInt16(port)))", "peerId": "\(peerID)"])
    }

    /// Why the acceptor closed a connection at once.
    private enum AdmissionRefusal: String, Error {
        case stopped
        case connectionLimit = "connection_limit"
        case pendingHandshakeLimit = "pending_handshake_limit"
    }

    /// Stops accepting, sends GoAway to every session and closes it.
    package func stop() {
        let open = connections.withLock { state -> [AnySyncConnection]? in
            guard !state.stopped else { return nil }
            state.stopped = true
            return Array(state.open.values)
        }
        guard let open else { return }
        listener.shutdown()
        open.forEach { $0.stop() }
        log(.info, "anysync_stopped", ["sessions": .int(open.count)])
    }

    /// Waits for the sessions' threads to end; true when they did within `timeout`.
    @discardableResult
    package func drain(timeout: Double) -> Bool {
        stop()
        return finished.wait(timeout: .after(seconds: timeout)) == .success
    }
}
