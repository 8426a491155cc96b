/// The any-sync door's bounds (PROTOCOL §7 `anysync.*`, Spec/anysync.md "Robustness"): the door
/// enforces them and the config (`NodeConfig.AnySync.limits`) sets them, so the defaults live here
/// only. Every buffer the door keeps is bounded by one of these or by `maxMessageBytes`
/// (`limits.maxBodyBytes`).
package struct AnySyncLimits: Sendable, Equatable {
    /// Seconds from accept to the end of the credentials exchange (an absolute deadline: a client
    /// trickling its TLS or Credentials bytes is closed when it passes).
    package var handshakeTimeout: Double = 10
    /// Seconds without a whole yamux frame after which a session is closed; bytes that never
    /// complete a frame do not count (clients ping every 25–30 s).
    package var idleTimeout: Double = 120
    /// Seconds one write may take before the session is closed (a client that stopped reading).
    package var writeTimeout: Double = 10
    /// Open connections; more are closed at accept.
    package var maxConnections = 256
    /// Connections still in TLS or the credentials exchange; more are closed at accept.
    package var maxPendingHandshakes = 256
    /// Open yamux streams per session; a SYN beyond is reset.
    package var maxStreams = 64
    /// The largest handshake frame (Credentials, Ack, Proto): the reference's 200 KiB.
    package var maxHandshakeFrameBytes = 200 * 1024
    /// The largest yamux Data frame; at most the stream window.
    package var maxFrameBytes = yamuxWindow

    package init() {}

    /// A yamux stream's initial window (256 KiB): no Data frame may be larger.
    package static let yamuxWindow = 256 * 1024
}
