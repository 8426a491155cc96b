import Foundation
import PushCrypto
import PushProtocol

/// The any-sync wire door (PROTOCOL §8): a TCP listener whose connections speak TLS + credentials +
/// yamux + DRPC onto the same `PushService` and `RateLimiter` as the HTTP door. One thread per
/// connection, at most `maxConnections` of them; `stop` sends GoAway to every session and closes it.
public final class AnySyncDoor: Sendable {
    public struct StartError: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// Connections over this are closed as soon as they are accepted.
    public static let maxConnections = 256

    public let port: Int
    public let peerID: String
    private let listener: AnySyncListener
    private let connections = Protected<(next: Int, open: [Int: AnySyncConnection], stopped: Bool)>((0, [:], false))
    private let finished = DispatchGroup()
    private let log: LogSink

    /// Opens the door on `config.anysync.listen` with the node's peer key.
    public static func start(config: NodeConfig, peerKey: Ed25519.KeyPair, service: PushService, rateLimiter: RateLimiter,
                             log: LogSink) throws -> AnySyncDoor {
        guard let address = config.anysync.listen else { throw StartError(description: "anysync.listen is not set") }
        var settings = AnySyncConnection.Settings()
        settings.versions = config.anysync.protocolVersions
        settings.limits.maxMessageBytes = config.limits.maxBodyBytes
        let door = try AnySyncDoor(address: address, peerKey: peerKey, settings: settings, log: log) { account, peerID in
            PushCallHandler(service: service, rateLimiter: rateLimiter, caller: account, peerID: peerID,
                            disabledPlatformToken: { platform in
                                log("level=warn event=anysync_token_platform_disabled platform=\(platform.rawValue) account=\(account.string)")
                            },
                            enabledPlatforms: config.enabledPlatforms)
        }
        log("event=anysync_listening listen=\(ListenAddress(host: address.host, port: UInt16(door.port))) peerId=\(door.peerID)")
        return door
    }

    init(address: ListenAddress, peerKey: Ed25519.KeyPair, settings: AnySyncConnection.Settings, log: LogSink,
         makeHandler: @escaping @Sendable (AccountID, String) -> PushCallHandler) throws {
        let tls: TLSServerContext
        do { tls = try TLSServerContext(hostKey: peerKey) } catch { throw StartError(description: "anysync: TLS: \(error)") }
        listener = try AnySyncListener(address: address)
        port = listener.port
        peerID = PeerID.string(publicKey: peerKey.publicKey)
        self.log = log
        let ownPeerID = peerID
        let acceptor = Thread { [listener, connections, finished] in
            while let fd = listener.accept() {
                let channel = SocketChannel(fd: fd)
                let connection = AnySyncConnection(channel: channel, tls: tls, peerKey: peerKey, ownPeerID: ownPeerID,
                                                   settings: settings, log: log, makeHandler: makeHandler)
                let id: Int? = connections.withLock { state in
                    guard !state.stopped, state.open.count < Self.maxConnections else { return nil }
                    state.next += 1
                    state.open[state.next] = connection
                    return state.next
                }
                guard let id else {
                    log("level=warn event=anysync_refused reason=connection_limit")
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
        acceptor.start()
    }

    /// Stops accepting, sends GoAway to every session and closes them; waits (bounded) for their threads.
    public func stop(timeout: Double = 5) {
        listener.shutdown()
        let open = connections.withLock { state -> [AnySyncConnection] in
            state.stopped = true
            return Array(state.open.values)
        }
        open.forEach { $0.stop() }
        _ = finished.wait(timeout: .now() + timeout)
        log("event=anysync_stopped sessions=\(open.count)")
    }
}
