import PushNet

/// The `matrix` section of `config.yaml` (PROTOCOL §10), as the door uses it.
package struct MatrixDoorConfiguration: Sendable, Equatable {
    /// Off by default: `POST` and `GET /_matrix/push/v1/notify` answer 404 like an unknown path.
    package var enabled = false
    /// False (the default): only ids, counts and `prio` are kept and sent, whatever the
    /// homeserver sends.
    package var forwardContent = false
    /// Who may call the door; empty = anyone.
    package var allowedSources: [IPNetwork] = []
    package var apps: [MatrixAppRoute] = []
    /// Requests per second of one caller's address, and the burst.
    package var sourcePerSecond: Double = 50
    package var sourceBurst = 200
    /// Pushes per minute to one pushkey, and the burst.
    package var pushkeyPerMinute: Double = 60
    package var pushkeyBurst = 30

    package init() {}

    /// Whether `address` may call the door (an unknown address only when any may).
    package func admits(_ address: IPAddress?) -> Bool {
        guard !allowedSources.isEmpty else { return true }
        guard let address else { return false }
        return allowedSources.contains { $0.contains(address) }
    }
}
