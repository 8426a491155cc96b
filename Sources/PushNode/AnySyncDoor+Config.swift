import PushAnySync
import PushConfig

extension AnySyncDoor.Configuration {
    /// The door's part of the node's config; nil when `anysync.listen` is unset (door closed).
    init?(_ config: NodeConfig) {
        guard let listen = config.anysync.listen else { return nil }
        var limits = AnySyncLimits()
        limits.handshakeTimeout = config.anysync.handshakeTimeout
        limits.idleTimeout = config.anysync.idleTimeout
        limits.writeTimeout = config.anysync.writeTimeout
        limits.maxConnections = config.anysync.maxConnections
        limits.maxPendingHandshakes = config.anysync.maxPendingHandshakes
        limits.maxStreams = config.anysync.maxStreams
        limits.maxHandshakeFrameBytes = config.anysync.maxHandshakeFrameBytes
        limits.maxFrameBytes = config.anysync.maxFrameBytes
        self.init(listen: listen, protocolVersions: config.anysync.protocolVersions,
                  maxMessageBytes: config.limits.maxBodyBytes, enabledPlatforms: config.enabledPlatforms, limits: limits)
    }
}
