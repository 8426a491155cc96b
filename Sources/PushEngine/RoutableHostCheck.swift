import Foundation
import PushNet

/// The Web Push private-address guard at send time: an endpoint host must resolve only to
/// publicly routable addresses (DNS can change after registration). It never blocks the lane:
/// it answers from the node's `CachingResolver` (which looks a missing or expired name up in the
/// background), and a name with no known answer is left to the connect-time check of the address
/// the HTTP client actually dials, which refuses the same address classes.
package final class RoutableHostCheck: Sendable {
    private let resolver: CachingResolver

    package init(resolver: CachingResolver = .shared) {
        self.resolver = resolver
    }

    /// Whether `host` (lowercased, IPv6 without brackets) may receive a push now.
    package func isRoutable(_ host: String) -> Bool {
        if let literal = IPAddress(host) { return AddressClass.of(literal).isPubliclyRoutable }
        switch resolver.cached(host) {
        case .addresses(let addresses): return !addresses.contains { !AddressClass.of($0).isPubliclyRoutable }
        case .notFound: return false
        case .temporaryFailure, nil: return true  // not known yet: the connect-time check decides
        }
    }
}
