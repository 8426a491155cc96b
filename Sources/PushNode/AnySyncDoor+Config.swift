import PushAnySync
import PushConfig

extension AnySyncDoor.Configuration {
    /// The door's part of the node's config; nil when `anysync.listen` is unset (door closed).
    init?(_ config: NodeConfig) {
        guard let listen = config.anysync.listen else { return nil }
        self.init(listen: listen, protocolVersions: config.anysync.protocolVersions,
                  maxMessageBytes: config.limits.maxBodyBytes, enabledPlatforms: config.enabledPlatforms,
                  limits: config.anysync.limits)
    }
}
