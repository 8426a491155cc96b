/// The node's release version: the one place it is written (capabilities, User-Agent, the
/// any-sync handshake's client version).
package enum NodeVersion {
    package static let current = "0.1.0-dev"
}
